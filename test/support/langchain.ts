// What the LangChain tests of every provider share: a weather tool that records its runs, and
// running a reply's tool calls into the ToolMessages to send back.

import type { AIMessage, ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { z } from 'zod';

/** A weather tool whose `city` must be a string or a number, recording each run. */
export function weatherTool(cityType: 'string' | 'number', ran: unknown[]) {
  const city = cityType === 'string' ? z.string() : z.number();
  return tool(
    async (input: { city: string | number }) => {
      ran.push(input);
      return `sunny in ${input.city}`;
    },
    { name: 'weather', description: 'Current weather for a city', schema: z.object({ city }) },
  );
}

/** Runs the tool calls of `reply` and returns the ToolMessages to send back. */
export async function runToolCalls(reply: AIMessage, weather: ReturnType<typeof weatherTool>): Promise<ToolMessage[]> {
  const results: ToolMessage[] = [];
  for (const call of reply.tool_calls ?? []) results.push(await weather.invoke(call));
  return results;
}
