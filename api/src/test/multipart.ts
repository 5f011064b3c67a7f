/** Test helper: a multipart/form-data body as a browser sends it, for `t.api({ ...multipart(...) })`. */
import { randomUUID } from 'node:crypto';

export type FilePart = { filename: string; data: Buffer; contentType?: string; field?: string };

/** The text fields first (repeated names repeat), then each file as a part named `files` unless it names its field. */
export function multipart(fields: [string, string][], files: FilePart[]) {
  const boundary = `----portal-test-${randomUUID()}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of fields) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field ?? 'files'}"; filename="${f.filename}"\r\nContent-Type: ${f.contentType ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      f.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
