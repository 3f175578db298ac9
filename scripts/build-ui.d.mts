/** Builds the dashboard into dist/ui/ (or `outdir`) and answers with the folder written. */
export function buildUi(options?: { outdir?: string; quiet?: boolean }): Promise<string>;
