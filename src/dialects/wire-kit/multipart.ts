// A multipart/form-data body (the uploads of image edits, transcriptions and video jobs), read by
// the platform's own parser (the fetch API's FormData, in Node since 18): no hand-written parser.

/** One field of a form: its text, or a file's name, type and bytes. */
export type FormField = { kind: 'text'; value: string } | { kind: 'file'; name: string; type: string; bytes: Uint8Array };

/** The fields of a form by name, each name's values in the order sent (`image[]` sent twice keeps
 * both). */
export type FormFields = Map<string, FormField[]>;

/** The fields of a multipart body; a string saying what is wrong when the content type is not
 * multipart/form-data with a boundary or the body is not a form of that boundary. */
export async function readForm(bytes: Uint8Array, contentType: string | undefined): Promise<FormFields | string> {
  if (!contentType || !/^multipart\/form-data\s*;/i.test(contentType) || !/boundary=/i.test(contentType)) {
    return `expected a multipart/form-data body with a boundary; found content type ${contentType === undefined ? 'none' : JSON.stringify(contentType)}`;
  }
  let form: FormData;
  try {
    form = await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': contentType } }).formData();
  } catch {
    return 'the body is not a multipart/form-data body of the boundary its content type names';
  }
  const fields: FormFields = new Map();
  for (const [name, value] of form.entries()) {
    let list = fields.get(name);
    if (!list) fields.set(name, (list = []));
    if (typeof value === 'string') list.push({ kind: 'text', value });
    else list.push({ kind: 'file', name: value.name, type: value.type, bytes: new Uint8Array(await value.arrayBuffer()) });
  }
  return fields;
}

/** The first text value of a field; undefined when absent or a file. */
export function formText(fields: FormFields, name: string): string | undefined {
  const first = fields.get(name)?.[0];
  return first?.kind === 'text' ? first.value : undefined;
}

/** The files sent under a field name (or any of several spellings, e.g. `image` and `image[]`). */
export function formFiles(fields: FormFields, ...names: string[]): Extract<FormField, { kind: 'file' }>[] {
  const files: Extract<FormField, { kind: 'file' }>[] = [];
  for (const name of names) for (const field of fields.get(name) ?? []) if (field.kind === 'file') files.push(field);
  return files;
}
