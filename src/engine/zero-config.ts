// Answers for requests no script matches, in `auto` fallback: call the first declared tool (or
// the named one) with the smallest arguments its schema accepts; once a tool result follows the
// latest user message (unless the tool choice requires a call), or without tools, a fixed
// sentence, or under JSON output the smallest value of the requested schema. Each answer passes
// the same contract check as a scripted reply.

import { checkReplyContract } from '../core/contract.js';
import { recentToolResults } from '../core/conversation.js';
import type { ChatRequest, JsonSchema, Reply, ReplyImage } from '../core/model.js';
import { smallestInstance } from '../core/schema-instance.js';

export const ZERO_CONFIG_TEXT = 'This is a scripted answer from Understudy.';

/** A zero-config reply, or why none can be given (the request's schema admits no value Understudy
 * can make, or the made value fails the contract). */
export type ZeroConfigAnswer = { reply: Reply; refusal?: undefined } | { reply?: undefined; refusal: string };

// Shared, never mutated: the contract check judges each reply object once.
const TEXT: Reply = Object.freeze({ text: ZERO_CONFIG_TEXT });
const JSON_OBJECT: Reply = Object.freeze({ json: Object.freeze({}) });
const TEXT_ANSWER: ZeroConfigAnswer = Object.freeze({ reply: TEXT });
// A request that asks for image output gets the default picture (beside the sentence when it asks
// for text too).
const DEFAULT_IMAGES = Object.freeze([Object.freeze({})]) as ReplyImage[];
const TEXT_AND_IMAGE: Reply = Object.freeze({ text: ZERO_CONFIG_TEXT, images: DEFAULT_IMAGES });
const TEXT_AND_IMAGE_ANSWER: ZeroConfigAnswer = Object.freeze({ reply: TEXT_AND_IMAGE });
const IMAGE_ANSWER: ZeroConfigAnswer = Object.freeze({ reply: Object.freeze({ images: DEFAULT_IMAGES }) as Reply });

// The server hands the engine the same request object for repeated bodies (its decode memo):
// decide once per request object.
const answers = new WeakMap<ChatRequest, ZeroConfigAnswer>();

export function zeroConfigAnswer(request: ChatRequest): ZeroConfigAnswer {
  let answer = answers.get(request);
  if (answer) return answer;
  answer = checked(request, zeroConfigReply(request));
  // The fixed sentence costs nothing to decide again; answers made from a schema are kept.
  if (answer.reply !== TEXT) answers.set(request, answer);
  return answer;
}

function checked(request: ChatRequest, made: ZeroConfigAnswer): ZeroConfigAnswer {
  if (made.refusal !== undefined) return made;
  const reason = checkReplyContract(request, made.reply);
  if (reason !== null) return { refusal: `the zero-config answer fails the request's contract: ${reason}` };
  return made;
}

function zeroConfigReply(request: ChatRequest): ZeroConfigAnswer {
  const choice = request.toolChoice;
  const toolsAllowed = request.tools.length > 0 && choice.type !== 'none';
  // A request that requires a call gets one even after a tool result, as from a real model.
  const mustCall = choice.type === 'required' || choice.type === 'named';
  if (toolsAllowed && (mustCall || recentToolResults(request).length === 0)) {
    const tool = (choice.type === 'named' && request.tools.find((t) => t.name === choice.name)) || request.tools[0];
    const args = smallestInstance(schemaOf(tool.parameters));
    if (!args.ok) {
      return {
        refusal: `zero-config cannot make arguments for tool "${tool.name}": its parameters schema admits no value Understudy can make (at ${args.schemaPath}: ${args.reason})`,
      };
    }
    return { reply: { toolCalls: [{ name: tool.name, arguments: args.value }] } };
  }
  const output = request.output;
  if (output.type === 'json_object') return { reply: JSON_OBJECT };
  if (output.type === 'json_schema') {
    const value = smallestInstance(schemaOf(output.schema));
    if (!value.ok) {
      const name = output.name === undefined ? '' : ` "${output.name}"`;
      return {
        refusal: `zero-config cannot make structured output: the requested output schema${name} admits no value Understudy can make (at ${value.schemaPath}: ${value.reason})`,
      };
    }
    return { reply: { json: value.value } };
  }
  if (request.imageOutput) return request.imageOutput.text ? TEXT_AND_IMAGE_ANSWER : IMAGE_ANSWER;
  return TEXT_ANSWER;
}

function schemaOf(schema: JsonSchema | undefined | null): JsonSchema {
  return schema === undefined || schema === null ? {} : schema;
}
