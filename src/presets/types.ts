// The TypeScript types of each preset's arguments and result, inferred from descriptions.ts: the
// same description the JSON Schemas come from.

import type { z } from 'zod';
import type { PresetName } from './catalogue.js';
import type { PRESET_DESCRIPTIONS, PRESET_ERROR_DESCRIPTION } from './descriptions.js';

type Descriptions = typeof PRESET_DESCRIPTIONS;

export type PresetArguments<N extends PresetName> = z.output<Descriptions[N]['arguments']>;
export type PresetResult<N extends PresetName> = z.output<Descriptions[N]['result']>;
/** `{ error: { code, message, retryable } }`: what a failed call gives back as its tool result. */
export type PresetErrorResult = z.output<typeof PRESET_ERROR_DESCRIPTION>;
export type PresetError = PresetErrorResult['error'];

export type CalculatorArguments = PresetArguments<'calculator'>;
export type CalculatorResult = PresetResult<'calculator'>;
export type CurrentTimeArguments = PresetArguments<'current_time'>;
export type CurrentTimeResult = PresetResult<'current_time'>;
export type WeatherArguments = PresetArguments<'weather'>;
export type WeatherResult = PresetResult<'weather'>;
export type WebSearchArguments = PresetArguments<'web_search'>;
export type WebSearchResult = PresetResult<'web_search'>;
export type FetchUrlArguments = PresetArguments<'fetch_url'>;
export type FetchUrlResult = PresetResult<'fetch_url'>;
export type FileSearchArguments = PresetArguments<'file_search'>;
export type FileSearchResult = PresetResult<'file_search'>;
export type ReadFileArguments = PresetArguments<'read_file'>;
export type ReadFileResult = PresetResult<'read_file'>;
export type WriteFileArguments = PresetArguments<'write_file'>;
export type WriteFileResult = PresetResult<'write_file'>;
export type ListFilesArguments = PresetArguments<'list_files'>;
export type ListFilesResult = PresetResult<'list_files'>;
export type RunCodeArguments = PresetArguments<'run_code'>;
export type RunCodeResult = PresetResult<'run_code'>;
export type ShellArguments = PresetArguments<'shell'>;
export type ShellResult = PresetResult<'shell'>;
export type ApplyPatchArguments = PresetArguments<'apply_patch'>;
export type ApplyPatchResult = PresetResult<'apply_patch'>;
