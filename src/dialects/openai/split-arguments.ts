// How OpenAI streams cut a tool call's arguments into delta fragments (Chat's tool_calls deltas,
// Responses' function_call_arguments.delta events).

import { fixedPieces } from '../../core/stream-pieces.js';

const ARGUMENT_FRAGMENT = 24;

export function splitArguments(text: string): string[] {
  return fixedPieces(text, ARGUMENT_FRAGMENT);
}
