// Conformance drivers for Bedrock's InvokeModel and InvokeModelWithResponseStream, one per body
// family (Anthropic Claude, Amazon Titan Text, Amazon Nova), through @aws-sdk/client-bedrock-runtime
// (made in ../bedrock-invoke.ts). InvokeModel answers tools and structured output on none of them
// (Converse does), so the drivers lack both. The malformed question puts a string where the body
// wants the temperature, which the client sends as it is: the body is the caller's bytes.

import { BedrockRuntimeServiceException } from '@aws-sdk/client-bedrock-runtime';
import { bedrockClient, CLAUDE, invoke, invokeStream, NOVA, TITAN } from '../bedrock-invoke.js';
import type { Answer, ConformanceDriver, Question } from './driver.js';

interface Family {
  name: string;
  model: string;
  body(question: Question): Record<string, unknown>;
  /** Text, finish and usage of a JSON answer. */
  json(body: Record<string, unknown>): Omit<Answer, 'toolCalls' | 'textDeltas' | 'requestId'>;
  /** Folds one stream event into what was read so far (deltas counted by the caller). */
  event(event: Record<string, unknown>, answer: Answer): void;
}

type Json = Record<string, unknown>;

const anthropic: Family = {
  name: 'bedrock-invoke-anthropic',
  model: CLAUDE,
  body: (q) => ({
    anthropic_version: 'bedrock-2023-05-31',
    max_tokens: 200,
    messages: [{ role: 'user', content: q.prompt }],
    ...(q.malformed && { temperature: 'hot' }),
  }),
  json(body) {
    const usage = body.usage as Json;
    return {
      text: (body.content as Json[]).map((b) => (b.type === 'text' ? String(b.text) : '')).join(''),
      finish: body.stop_reason as string,
      usage: { input: Number(usage.input_tokens), output: Number(usage.output_tokens) },
    };
  },
  event(event, answer) {
    if (event.type === 'content_block_delta') {
      answer.text += String((event.delta as Json).text ?? '');
      answer.textDeltas++;
    } else if (event.type === 'message_start') {
      const usage = (event.message as Json).usage as Json;
      answer.usage = { input: Number(usage.input_tokens), output: 0 };
    } else if (event.type === 'message_delta') {
      answer.finish = String((event.delta as Json).stop_reason);
      answer.usage = { input: answer.usage?.input ?? 0, output: Number((event.usage as Json).output_tokens) };
    }
  },
};

const titan: Family = {
  name: 'bedrock-invoke-titan',
  model: TITAN,
  body: (q) => ({ inputText: q.prompt, textGenerationConfig: { maxTokenCount: 200, ...(q.malformed && { temperature: 'hot' }) } }),
  json(body) {
    const [result] = body.results as Json[];
    return {
      text: String(result.outputText),
      finish: String(result.completionReason),
      usage: { input: Number(body.inputTextTokenCount), output: Number(result.tokenCount) },
    };
  },
  event(event, answer) {
    if (typeof event.outputText === 'string' && event.outputText !== '') {
      answer.text += event.outputText;
      answer.textDeltas++;
    }
    if (typeof event.inputTextTokenCount === 'number') answer.usage = { input: event.inputTextTokenCount, output: 0 };
    if (typeof event.completionReason === 'string') {
      answer.finish = event.completionReason;
      answer.usage = { input: answer.usage?.input ?? 0, output: Number(event.totalOutputTextTokenCount) };
    }
  },
};

const nova: Family = {
  name: 'bedrock-invoke-nova',
  model: NOVA,
  body: (q) => ({
    schemaVersion: 'messages-v1',
    messages: [{ role: 'user', content: [{ text: q.prompt }] }],
    inferenceConfig: { maxTokens: 200, ...(q.malformed && { temperature: 'hot' }) },
  }),
  json(body) {
    const content = ((body.output as Json).message as Json).content as Json[];
    const usage = body.usage as Json;
    return {
      text: content.map((b) => (typeof b.text === 'string' ? b.text : '')).join(''),
      finish: String(body.stopReason),
      usage: { input: Number(usage.inputTokens), output: Number(usage.outputTokens) },
    };
  },
  event(event, answer) {
    const delta = (event.contentBlockDelta as Json | undefined)?.delta as Json | undefined;
    if (typeof delta?.text === 'string') {
      answer.text += delta.text;
      answer.textDeltas++;
    }
    if (event.messageStop) answer.finish = String((event.messageStop as Json).stopReason);
    const usage = (event.metadata as Json | undefined)?.usage as Json | undefined;
    if (usage) answer.usage = { input: Number(usage.inputTokens), output: Number(usage.outputTokens) };
  },
};

function driver(family: Family): ConformanceDriver {
  return {
    name: family.name,
    dialect: 'bedrock-invoke',
    operations: { json: 'bedrock.invokeModel', stream: 'bedrock.invokeModelWithResponseStream' },
    route: /^POST \/model\/[^/]+\/invoke/,
    errorTypes: { invalidRequest: 'ValidationException', rateLimited: 'ThrottlingException', conflict: 'ConflictException' },
    lacks: ['tools', 'structured output', 'tool choice by name'],
    connect(target) {
      const client = bedrockClient(target.url('bedrock'), target.apiKey);
      return {
        async ask(question, mode) {
          if (mode === 'json') {
            const { json, output } = await invoke(client, family.model, family.body(question));
            return { ...family.json(json), toolCalls: [], textDeltas: 0, requestId: output.$metadata.requestId };
          }
          const answer: Answer = { text: '', toolCalls: [], textDeltas: 0, finish: undefined, usage: undefined, requestId: undefined };
          const { events } = await invokeStream(client, family.model, family.body(question));
          for (const event of events) family.event(event, answer);
          return answer;
        },
      };
    },
    errorOf(thrown) {
      if (thrown instanceof BedrockRuntimeServiceException) {
        return { api: true, status: thrown.$metadata?.httpStatusCode, type: thrown.name, message: thrown.message };
      }
      if (thrown instanceof Error) return { api: false, status: undefined, type: undefined, message: thrown.message };
      throw new Error(`the AWS client threw something that is not an Error: ${String(thrown)}`);
    },
  };
}

export const bedrockInvokeDrivers: ConformanceDriver[] = [anthropic, titan, nova].map(driver);
