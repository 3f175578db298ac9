// llm-understudy/langchain: a LangChain chat model answered by a session's scripts in process.
export { UnderstudyChatModel, type UnderstudyChatModelFields, type UnderstudyChatModelCallOptions } from './chat-model.js';
export { UnderstudyFaultError, UnderstudyModelError } from '../../index.js';
