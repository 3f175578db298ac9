// One valid call and result per preset, for the tests that run every preset.

import type { PresetArguments, PresetName, PresetResult } from '../../src/presets/index.js';

export const PRESET_EXAMPLES: { [N in PresetName]: { args: PresetArguments<N>; result: PresetResult<N> } } = {
  calculator: { args: { expression: '6 * 7' }, result: { value: 42 } },
  current_time: {
    args: { time_zone: 'Europe/Paris' },
    result: { timestamp: '2026-03-01T09:30:00+01:00', time_zone: 'Europe/Paris' },
  },
  weather: {
    args: { location: 'Paris', unit: 'celsius' },
    result: { location: 'Paris', temperature: 21, unit: 'celsius', condition: 'sunny' },
  },
  web_search: {
    args: { query: 'understudy theatre', limit: 2 },
    result: {
      results: [
        { title: 'Understudy', url: 'https://example.com/understudy', snippet: 'A performer who learns a role.' },
        { title: 'Stand-in', url: 'https://example.org/stand-in', snippet: 'Takes the place of another.' },
      ],
    },
  },
  fetch_url: {
    args: { url: 'https://example.com/' },
    result: { status: 200, content_type: 'text/html', content: '<h1>Example</h1>' },
  },
  file_search: {
    args: { query: 'quarterly report', limit: 1 },
    result: { results: [{ file_id: 'file_1', path: 'reports/q1.md', snippet: 'Revenue grew.' }] },
  },
  read_file: { args: { path: 'notes.txt', offset: 0, length: 5 }, result: { content: 'hello', truncated: true } },
  write_file: {
    args: { path: 'notes.txt', content: 'hello', append: false },
    result: { path: 'notes.txt', bytes_written: 5 },
  },
  list_files: {
    args: { path: 'src', recursive: false },
    result: {
      entries: [
        { path: 'src/index.ts', type: 'file', size: 120 },
        { path: 'src/lib', type: 'directory' },
      ],
    },
  },
  run_code: {
    args: { language: 'python', code: 'print(6 * 7)' },
    result: { stdout: '42\n', stderr: '', exit_code: 0 },
  },
  shell: {
    args: { command: 'ls', working_directory: '/tmp' },
    result: { stdout: 'a.txt\n', stderr: '', exit_code: 0 },
  },
  apply_patch: {
    args: { patch: '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n' },
    result: { updated_paths: ['x'] },
  },
};
