// A LangChain chat model answered by an Understudy session's scripts in this process, with no HTTP:
// each call becomes the neutral request a provider's decoder would make, and goes through the same
// selection, contract check, journal, tool ledger and verify() as a request over the wire.

import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import type { BaseLanguageModelInput, StructuredOutputMethodOptions } from '@langchain/core/language_models/base';
import {
  BaseChatModel,
  type BaseChatModelCallOptions,
  type BaseChatModelParams,
  type BindToolsInput,
  type LangSmithParams,
} from '@langchain/core/language_models/chat_models';
import type { ModelProfile } from '@langchain/core/language_models/profile';
import {
  assembleStructuredOutputPipeline,
  createContentParser,
  createFunctionCallingParser,
} from '@langchain/core/language_models/structured_output';
import type { AIMessageChunk, BaseMessage } from '@langchain/core/messages';
import { ChatGenerationChunk, type ChatResult } from '@langchain/core/outputs';
import type { Runnable } from '@langchain/core/runnables';
import { getSchemaDescription, type InteropZodType } from '@langchain/core/utils/types';
import type { SerializableSchema } from '@langchain/core/utils/standard_schema';
import { _answerInProcess, _engineSessionOf, type InProcessAnswer, type UnderstudySession } from '../../index.js';
import { neutralRequest } from '../neutral-request.js';
import { actOut, beforeFault } from './fault.js';
import { neutralMessages } from './messages.js';
import { finalChunk, replyChunks, replyMessage, usageMetadata } from './reply-message.js';
import { boundTool, jsonSchemaOf, outputOf, toolChoiceOf, toolDefinitions, type ResponseFormat } from './tools.js';

type EngineSession = NonNullable<ReturnType<typeof _engineSessionOf>>;

export interface UnderstudyChatModelFields extends BaseChatModelParams {
  /** A session of this process (createUnderstudy() or startUnderstudy()). */
  session: UnderstudySession;
  /** The model name the request carries (what `whenModel` matches), default `understudy`. */
  model?: string;
  /** Sent as the request's maximum output tokens. */
  maxTokens?: number;
}

export interface UnderstudyChatModelCallOptions extends BaseChatModelCallOptions {
  /** Bound by bindTools(): function-tool dicts or LangChain tools. */
  tools?: BindToolsInput[];
  parallel_tool_calls?: boolean;
  /** Bound by withStructuredOutput() and by createAgent's provider strategy. */
  response_format?: ResponseFormat;
  /** Marks every bound tool strict (or not), as createAgent's `modelSettings.strict` does. */
  strict?: boolean;
}

const NOT_IN_PROCESS =
  "UnderstudyChatModel needs a session this process's llm-understudy made (createUnderstudy() or startUnderstudy()); this one is reached over HTTP (connectUnderstudy()), or was made by another copy of the package. Over HTTP, point a provider model (e.g. ChatOpenAI with configuration.baseURL = session.url()) at it instead";

export class UnderstudyChatModel extends BaseChatModel<UnderstudyChatModelCallOptions, AIMessageChunk> {
  static lc_name() {
    return 'UnderstudyChatModel';
  }
  readonly model: string;
  readonly maxTokens: number | undefined;
  private readonly engineSession: EngineSession;

  constructor(fields: UnderstudyChatModelFields) {
    super(fields);
    const engineSession = _engineSessionOf(fields.session);
    if (!engineSession) throw new TypeError(NOT_IN_PROCESS);
    this.engineSession = engineSession;
    this.model = fields.model ?? 'understudy';
    this.maxTokens = fields.maxTokens;
  }

  _llmType(): string {
    return 'understudy';
  }

  override get profile(): ModelProfile {
    return { toolCalling: true, toolChoice: true, structuredOutput: true, imageInputs: true, imageUrlInputs: true, reasoningOutput: true };
  }

  override getLsParams(): LangSmithParams {
    return { ls_provider: 'understudy', ls_model_name: this.model, ls_model_type: 'chat', ls_max_tokens: this.maxTokens };
  }

  override invocationParams(options?: this['ParsedCallOptions']) {
    return { model: this.model, tool_choice: options?.tool_choice, response_format: options?.response_format };
  }

  override bindTools(
    tools: BindToolsInput[],
    kwargs?: Partial<UnderstudyChatModelCallOptions>,
  ): Runnable<BaseLanguageModelInput, AIMessageChunk, UnderstudyChatModelCallOptions> {
    return this.withConfig({ ...kwargs, tools: tools.map((tool, i) => boundTool(tool, i)) });
  }

  async _generate(messages: BaseMessage[], options: this['ParsedCallOptions']): Promise<ChatResult> {
    const answer = await this.answer(messages, options, false);
    if (answer.fault) await actOut(answer.fault, options.signal, false);
    const message = replyMessage(answer, this.model);
    const usage = usageMetadata(answer.reply);
    return {
      generations: [{ text: message.text, message, generationInfo: { finish_reason: answer.reply.finishReason } }],
      llmOutput: {
        tokenUsage: { promptTokens: usage.input_tokens, completionTokens: usage.output_tokens, totalTokens: usage.total_tokens },
      },
    };
  }

  async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this['ParsedCallOptions'],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const answer = await this.answer(messages, options, true);
    const chunks = replyChunks(answer);
    const delivered = answer.fault ? beforeFault(chunks, answer.fault) : chunks;
    for (const message of delivered) {
      options.signal?.throwIfAborted();
      const chunk = new ChatGenerationChunk({ text: message.text, message });
      yield chunk;
      await runManager?.handleLLMNewToken(chunk.text, undefined, undefined, undefined, undefined, { chunk });
    }
    if (answer.fault) {
      await actOut(answer.fault, options.signal, true);
      return;
    }
    options.signal?.throwIfAborted();
    const last = new ChatGenerationChunk({
      text: '',
      message: finalChunk(answer, this.model),
      generationInfo: { finish_reason: answer.reply.finishReason },
    });
    yield last;
    await runManager?.handleLLMNewToken('', undefined, undefined, undefined, undefined, { chunk: last });
  }

  /** The session's answer, retried as LangChain retries a provider call (maxRetries: a scripted
   * 5xx, a 429 whose message says when to try again). The request is made once, outside the
   * retries: a call the model cannot express fails at once. */
  private answer(messages: BaseMessage[], options: this['ParsedCallOptions'], stream: boolean): Promise<InProcessAnswer> {
    const tools = toolDefinitions(options.tools, options.strict);
    const request = neutralRequest({
      model: this.model,
      messages: neutralMessages(messages),
      tools,
      toolChoice: toolChoiceOf(options.tool_choice, tools),
      parallelToolCalls: options.parallel_tool_calls,
      output: outputOf(options.response_format),
      stream,
      maxOutputTokens: this.maxTokens,
    });
    const call = stream
      ? { route: 'langchain stream', operation: 'langchain.stream', signal: options.signal }
      : { route: 'langchain invoke', operation: 'langchain.invoke', signal: options.signal };
    return this.caller.callWithOptions({ signal: options.signal }, () => _answerInProcess(this.engineSession, request, call));
  }

  override withStructuredOutput<RunOutput extends Record<string, any> = Record<string, any>>(
    outputSchema: InteropZodType<RunOutput> | SerializableSchema<RunOutput> | Record<string, any>,
    config?: StructuredOutputMethodOptions<false>,
  ): Runnable<BaseLanguageModelInput, RunOutput>;
  override withStructuredOutput<RunOutput extends Record<string, any> = Record<string, any>>(
    outputSchema: InteropZodType<RunOutput> | SerializableSchema<RunOutput> | Record<string, any>,
    config?: StructuredOutputMethodOptions<true>,
  ): Runnable<BaseLanguageModelInput, { raw: BaseMessage; parsed: RunOutput }>;
  /** Structured output as the request's JSON output format (`jsonSchema`, the default: a
   * json_schema output; `jsonMode`: json_object), parsed from the answer's text; or
   * (`functionCalling`) as one bound tool the answer must call, parsed from its arguments. */
  override withStructuredOutput<RunOutput extends Record<string, any> = Record<string, any>>(
    outputSchema: InteropZodType<RunOutput> | SerializableSchema<RunOutput> | Record<string, any>,
    config?: StructuredOutputMethodOptions<boolean>,
  ): Runnable<BaseLanguageModelInput, RunOutput> | Runnable<BaseLanguageModelInput, { raw: BaseMessage; parsed: RunOutput }> {
    const method = config?.method ?? 'jsonSchema';
    if (method !== 'jsonSchema' && method !== 'jsonMode' && method !== 'functionCalling') {
      throw new TypeError(`withStructuredOutput: method "${method}" is not one Understudy maps (jsonSchema, jsonMode, functionCalling)`);
    }
    const schema = jsonSchemaOf(outputSchema);
    const title = (schema as { title?: unknown }).title;
    const name = config?.name ?? (typeof title === 'string' ? title : 'extract');
    const description = getSchemaDescription(schema as Record<string, unknown>);
    const runName = config?.includeRaw ? 'StructuredOutputRunnable' : 'StructuredOutput';
    if (method === 'functionCalling') {
      // The schema as the one tool the answer must call; its arguments are the output.
      const fn = { name, parameters: schema, ...(description !== undefined && { description }) };
      const llm = this.bindTools([{ type: 'function', function: fn }], {
        tool_choice: name,
        ...(config?.strict !== undefined && { strict: config.strict }),
        ls_structured_output_format: { kwargs: { method: 'function_calling' }, schema: { title: name, ...(schema as object) } },
      } as Partial<UnderstudyChatModelCallOptions>);
      return assembleStructuredOutputPipeline(llm, createFunctionCallingParser<RunOutput>(outputSchema, name), config?.includeRaw, runName);
    }
    const response_format: ResponseFormat =
      method === 'jsonMode'
        ? { type: 'json_object' }
        : {
            type: 'json_schema',
            json_schema: { name, description, schema, ...(config?.strict !== undefined && { strict: config.strict }) },
          };
    const llm = this.withConfig({
      response_format,
      ls_structured_output_format: {
        kwargs: { method: method === 'jsonMode' ? 'json_mode' : 'json_schema' },
        schema: { title: name, ...(schema as object) },
      },
    } as Partial<UnderstudyChatModelCallOptions>);
    return assembleStructuredOutputPipeline(llm, createContentParser<RunOutput>(outputSchema), config?.includeRaw, runName);
  }
}
