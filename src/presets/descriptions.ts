// The twelve presets, each described once with zod, keyed by its function name: what the model is told it
// does, the arguments it takes and the result it gives back. The catalogue's JSON Schemas
// (catalogue.ts) and the TypeScript types (types.ts) both come from these descriptions.
//
// Every object is strict (the JSON Schema says additionalProperties: false) and an optional member
// is one the JSON leaves out when it is unset. Field names are snake_case, like the function names.

import { z } from 'zod';

const text = (description: string) => z.string().describe(description);
const nonEmpty = (description: string) => z.string().min(1).describe(description);
const byteCount = (description: string) => z.int().nonnegative().describe(description);
const searchLimit = () => z.int().min(1).max(100).describe('Most hits to return, from 1 to 100.');
const TEMPERATURE_UNITS = ['celsius', 'fahrenheit'] as const;

const processOutput = z.strictObject({
  stdout: text('What the program wrote to standard output.'),
  stderr: text('What the program wrote to standard error.'),
  exit_code: z.int().describe('The exit code (0 is success).'),
});

const hits = <T extends z.ZodType>(hit: T) => z.strictObject({ results: z.array(hit).max(100).describe('The hits, best first.') });

/** A description of one preset; its key in PRESET_DESCRIPTIONS is the function name offered. */
interface Described<A extends z.ZodType, R extends z.ZodType> {
  description: string;
  arguments: A;
  result: R;
}

const preset = <A extends z.ZodType, R extends z.ZodType>(described: Described<A, R>) => described;

export const PRESET_DESCRIPTIONS = {
  calculator: preset({
    description: 'Evaluates an arithmetic expression and returns its decimal value.',
    arguments: z.strictObject({ expression: nonEmpty('The expression, e.g. "6 * 7".') }),
    result: z.strictObject({ value: z.number().describe('The decimal value of the expression.') }),
  }),
  current_time: preset({
    description: 'Returns the current date and time in a time zone.',
    arguments: z.strictObject({ time_zone: nonEmpty('An IANA time zone, e.g. "Europe/Paris", or "UTC".') }),
    result: z.strictObject({
      // The JSON Schema format alone (Ajv's date-time requires the offset): zod's own pattern for it
      // would make a refusal quote a long regular expression.
      timestamp: z
        .string()
        .meta({ format: 'date-time' })
        .describe('The time as an RFC 3339 timestamp with its offset, e.g. "2026-03-01T09:30:00+01:00".'),
      time_zone: nonEmpty('The time zone the timestamp is given in.'),
    }),
  }),
  weather: preset({
    description: 'Returns the current weather at a location.',
    arguments: z.strictObject({
      location: nonEmpty('A city or place name, e.g. "Paris".'),
      unit: z.enum(TEMPERATURE_UNITS).optional().describe('The temperature unit of the answer.'),
    }),
    result: z.strictObject({
      location: nonEmpty('The location the weather is for.'),
      temperature: z.number().describe('The temperature, in `unit`.'),
      unit: z.enum(TEMPERATURE_UNITS).describe('The temperature unit.'),
      condition: nonEmpty('The conditions in a word or two, e.g. "sunny".'),
    }),
  }),
  web_search: preset({
    description: 'Searches the web and returns the best hits.',
    arguments: z.strictObject({ query: nonEmpty('What to search for.'), limit: searchLimit().optional() }),
    result: hits(
      z.strictObject({
        title: text('The page title.'),
        url: z.url().describe('The page address.'),
        snippet: text('An excerpt of the page.'),
      }),
    ),
  }),
  fetch_url: preset({
    description: 'Fetches a URL and returns the response status, content type and content.',
    arguments: z.strictObject({ url: z.url().describe('The absolute URL to fetch.') }),
    result: z.strictObject({
      status: z.int().min(100).max(599).describe('The HTTP status.'),
      content_type: text('The Content-Type of the response.'),
      content: text('The response body as text.'),
    }),
  }),
  file_search: preset({
    description: 'Searches the indexed files and returns the best hits.',
    arguments: z.strictObject({ query: nonEmpty('What to search for.'), limit: searchLimit().optional() }),
    result: hits(
      z.strictObject({
        file_id: nonEmpty('The id of the file.'),
        path: nonEmpty('The path of the file.'),
        snippet: text('An excerpt of the file.'),
      }),
    ),
  }),
  read_file: preset({
    description: 'Reads a text file, from a character offset, up to an optional length.',
    arguments: z.strictObject({
      path: nonEmpty('The path of the file.'),
      offset: byteCount('Where to start reading (0 is the start).'),
      length: byteCount('Most characters to read; the rest of the file when left out.').optional(),
    }),
    result: z.strictObject({
      content: text('What was read.'),
      truncated: z.boolean().describe('Whether the file goes on past what was read.'),
    }),
  }),
  write_file: preset({
    description: 'Writes text to a file, replacing it or appending to it.',
    arguments: z.strictObject({
      path: nonEmpty('The path of the file.'),
      content: text('The text to write.'),
      append: z.boolean().describe('Append to the file instead of replacing it.'),
    }),
    result: z.strictObject({
      path: nonEmpty('The path written.'),
      bytes_written: byteCount('How many bytes were written.'),
    }),
  }),
  list_files: preset({
    description: 'Lists the files and directories under a path.',
    arguments: z.strictObject({
      path: nonEmpty('The directory to list.'),
      recursive: z.boolean().describe('Whether to list subdirectories too.'),
    }),
    result: z.strictObject({
      entries: z
        .array(
          z.strictObject({
            path: nonEmpty('The path of the entry.'),
            type: z.enum(['file', 'directory']).describe('What the entry is.'),
            size: byteCount('The size of a file in bytes.').optional(),
          }),
        )
        .describe('The entries found.'),
    }),
  }),
  run_code: preset({
    description: 'Runs a program in a sandbox and returns its output and exit code.',
    arguments: z.strictObject({
      language: nonEmpty('The programming language, e.g. "python".'),
      code: nonEmpty('The source code to run.'),
    }),
    result: processOutput,
  }),
  shell: preset({
    description: 'Runs a shell command and returns its output and exit code.',
    arguments: z.strictObject({
      command: nonEmpty('The command line to run.'),
      working_directory: nonEmpty('The directory to run it in; the default one when left out.').optional(),
    }),
    result: processOutput,
  }),
  apply_patch: preset({
    description: 'Applies a patch to the files it names and returns the paths it updated.',
    arguments: z.strictObject({ patch: nonEmpty('The patch text, e.g. a unified diff.') }),
    result: z.strictObject({
      updated_paths: z.array(nonEmpty('A path the patch changed.')).describe('The paths the patch changed.'),
    }),
  }),
};

/** What a failed tool call gives back instead of its result: tool-result content, not an HTTP error. */
export const PRESET_ERROR_DESCRIPTION = z.strictObject({
  error: z.strictObject({
    code: nonEmpty('A short machine-readable code, e.g. "not_found".'),
    message: text('What went wrong, for a person.'),
    retryable: z.boolean().describe('Whether calling again may succeed.'),
  }),
});
