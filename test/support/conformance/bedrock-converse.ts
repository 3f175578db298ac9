// Conformance driver for Bedrock Converse, through @aws-sdk/client-bedrock-runtime's
// ConverseCommand (JSON) and ConverseStreamCommand (the event stream, read through the client's
// async iterator). The AWS client names each error by its exception class (`e.name`), which stands
// for the provider's type; the client comes from test/support/bedrock.ts.

import {
  BedrockRuntimeServiceException,
  ConverseCommand,
  ConverseStreamCommand,
  type ContentBlock,
  type ConverseCommandInput,
  type ConverseResponse,
  type Message,
  type TokenUsage,
} from '@aws-sdk/client-bedrock-runtime';
import { bedrockClient } from '../bedrock.js';
import { parsedArguments, type Answer, type ConformanceDriver, type Question } from './driver.js';

const MODEL = 'anthropic.claude-3-haiku-20240307-v1:0';

function messages(question: Question): Message[] {
  const history: Message[] = [{ role: 'user', content: [{ text: question.prompt }] }];
  const result = question.toolResult;
  if (result) {
    history.push(
      { role: 'assistant', content: [{ toolUse: { toolUseId: result.id, name: result.name, input: result.arguments as never } }] },
      { role: 'user', content: [{ toolResult: { toolUseId: result.id, content: [{ text: result.result }] } }] },
    );
  }
  return history;
}

export function converseInput(question: Question): ConverseCommandInput {
  const tools =
    question.tools ??
    (question.toolResult ? [{ name: question.toolResult.name, description: 'the tool', parameters: { type: 'object' } }] : undefined);
  return {
    modelId: MODEL,
    messages: messages(question),
    inferenceConfig: { maxTokens: 256, ...(question.malformed && { temperature: 'hot' as never }) },
    ...(tools && {
      toolConfig: {
        tools: tools.map((t) => ({ toolSpec: { name: t.name, description: t.description, inputSchema: { json: t.parameters as never } } })),
        ...(question.toolChoice && { toolChoice: { tool: { name: question.toolChoice.name } } }),
      },
    }),
    ...(question.schema && {
      outputConfig: {
        textFormat: {
          type: 'json_schema' as const,
          structure: { jsonSchema: { name: question.schema.name, schema: JSON.stringify(question.schema.schema) } },
        },
      },
    }),
  };
}

function usageOf(usage: TokenUsage | undefined): Answer['usage'] {
  if (usage?.inputTokens === undefined || usage.outputTokens === undefined) return undefined;
  // The prompt as a whole: the part read from or written to the cache is reported beside inputTokens.
  return { input: usage.inputTokens + (usage.cacheReadInputTokens ?? 0) + (usage.cacheWriteInputTokens ?? 0), output: usage.outputTokens };
}

/** A document as JSON reads it: where the runtime lets it (Node 22's JSON.parse with source text),
 * the AWS client hands integers past 2^53 back as BigInt, which a scripted JSON number is not. */
function asJsonNumbers(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(asJsonNumbers);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, asJsonNumbers(member)]));
  return value;
}

function answerOf(response: ConverseResponse & { $metadata: { requestId?: string } }): Answer {
  let text = '';
  const toolCalls: Answer['toolCalls'] = [];
  for (const block of (response.output?.message?.content ?? []) as ContentBlock[]) {
    if (block.text !== undefined) text += block.text;
    if (block.toolUse)
      toolCalls.push({ id: block.toolUse.toolUseId ?? '', name: block.toolUse.name ?? '', arguments: asJsonNumbers(block.toolUse.input) });
  }
  return {
    text,
    toolCalls,
    textDeltas: 0,
    finish: response.stopReason,
    usage: usageOf(response.usage),
    requestId: response.$metadata.requestId,
  };
}

export const bedrockConverseDriver: ConformanceDriver = {
  name: 'bedrock-converse',
  dialect: 'bedrock-converse',
  operations: { json: 'bedrock.converse', stream: 'bedrock.converseStream' },
  errorTypes: { invalidRequest: 'ValidationException', rateLimited: 'ThrottlingException', conflict: 'ConflictException' },
  // The driver's client is the AWS client on its default (HTTP/2) handler.
  streamCutEndsQuietly: true,
  connect(target) {
    const client = bedrockClient(target, { apiKey: target.apiKey });
    return {
      async ask(question, mode) {
        if (mode === 'json') return answerOf(await client.send(new ConverseCommand(converseInput(question))));
        const response = await client.send(new ConverseStreamCommand(converseInput(question)));
        let text = '';
        let textDeltas = 0;
        let finish: string | undefined;
        let usage: Answer['usage'];
        const calls = new Map<number, { id: string; name: string; input: string }>();
        for await (const event of response.stream ?? []) {
          if (event.contentBlockStart?.start?.toolUse) {
            const start = event.contentBlockStart.start.toolUse;
            calls.set(event.contentBlockStart.contentBlockIndex ?? 0, { id: start.toolUseId ?? '', name: start.name ?? '', input: '' });
          } else if (event.contentBlockDelta) {
            const delta = event.contentBlockDelta.delta;
            if (delta?.text !== undefined) {
              text += delta.text;
              textDeltas++;
            }
            const call = calls.get(event.contentBlockDelta.contentBlockIndex ?? 0);
            if (delta?.toolUse?.input !== undefined && call) call.input += delta.toolUse.input;
          } else if (event.messageStop) {
            finish = event.messageStop.stopReason;
          } else if (event.metadata) {
            usage = usageOf(event.metadata.usage);
          }
        }
        const toolCalls = [...calls.values()].map((c) => ({ id: c.id, name: c.name, arguments: parsedArguments(c.input) }));
        // A stream that ended before its metadata event did not finish.
        return { text, toolCalls, textDeltas, finish: usage ? finish : undefined, usage, requestId: response.$metadata.requestId };
      },
    };
  },
  errorOf(thrown) {
    if (thrown instanceof BedrockRuntimeServiceException) {
      return {
        api: true,
        status: (thrown.$metadata as typeof thrown.$metadata | undefined)?.httpStatusCode,
        type: thrown.name,
        message: thrown.message,
      };
    }
    if (thrown instanceof Error) return { api: false, status: undefined, type: undefined, message: thrown.message };
    throw new Error(`@aws-sdk/client-bedrock-runtime threw something that is not an Error: ${String(thrown)}`);
  },
};
