// The Amazon Titan Text body: `inputText` (the whole prompt, one user turn in the neutral record:
// predicates such as `latestUser.contains` read all of it) and an optional `textGenerationConfig`
// with `temperature` and `topP` (0 to 1), `maxTokenCount` (0 to the model's most) and
// `stopSequences`. Titan has no system prompt, tools or structured output.

import type { ChatRequest } from '../../core/model.js';
import { expectArray, expectInteger, expectNumber, expectObject, expectString, onlyMembers, requiredMember } from './wording.js';

const MEMBERS: ReadonlySet<string> = new Set(['inputText', 'textGenerationConfig']);
const CONFIG_MEMBERS: ReadonlySet<string> = new Set(['temperature', 'topP', 'maxTokenCount', 'stopSequences']);
const UNIT = { min: 0, max: 1 };

/** The most `maxTokenCount` each Titan Text model takes, as Bedrock documents them. */
function mostTokens(modelId: string): number {
  if (modelId.includes('titan-text-lite')) return 4096;
  if (modelId.includes('titan-text-premier')) return 3072;
  return 8192;
}

export function decodeTitanBody(body: Record<string, unknown>, modelId: string): ChatRequest {
  onlyMembers(body, MEMBERS, '#');
  const inputText = expectString(requiredMember(body, 'inputText', '#'), '#/inputText');
  let maxOutputTokens: number | undefined;
  if (body.textGenerationConfig !== undefined) {
    const config = expectObject(body.textGenerationConfig, '#/textGenerationConfig');
    onlyMembers(config, CONFIG_MEMBERS, '#/textGenerationConfig');
    if (config.temperature !== undefined) expectNumber(config.temperature, '#/textGenerationConfig/temperature', UNIT);
    if (config.topP !== undefined) expectNumber(config.topP, '#/textGenerationConfig/topP', UNIT);
    if (config.maxTokenCount !== undefined) {
      maxOutputTokens = expectInteger(config.maxTokenCount, '#/textGenerationConfig/maxTokenCount', { min: 0, max: mostTokens(modelId) });
    }
    if (config.stopSequences !== undefined) {
      expectArray(config.stopSequences, '#/textGenerationConfig/stopSequences').forEach((s, i) =>
        expectString(s, `#/textGenerationConfig/stopSequences/${i}`),
      );
    }
  }
  return {
    model: modelId,
    messages: [{ role: 'user', parts: inputText.length > 0 ? [{ type: 'text', text: inputText }] : [] }],
    tools: [],
    toolChoice: { type: 'auto' },
    parallelToolCalls: false,
    output: { type: 'text' },
    stream: false,
    streamUsage: false,
    maxOutputTokens,
    promptCaching: 'none',
  };
}
