import type { FastifyRequest } from 'fastify';
import { HttpError } from './http-error';

export interface UploadedFile {
  field: string;
  /** As the client named it: for display only, never a path. */
  filename: string;
  /** As the client claimed it: not trusted (check the bytes). */
  mimetype: string;
  buffer: Buffer;
}

export interface FormData {
  fields: Record<string, unknown>;
  files: UploadedFile[];
}

export interface ReadFormOptions {
  /** File fields accepted, each with its size limit in bytes and the rule to name when it is exceeded. */
  files: Record<string, { maxBytes: number; sizeRule: string; maxCount?: number }>;
}

/**
 * The fields and files of a multipart body (or the fields of a JSON body, with no files). Files are
 * read with a size limit per field: a larger one is refused with an error naming the field, before
 * anything is stored. Unknown file fields are refused too.
 */
export async function readForm(request: FastifyRequest, options: ReadFormOptions): Promise<FormData> {
  if (!request.isMultipart()) {
    const body = request.body;
    if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) {
      throw new HttpError(400, 'bad_request', 'The body must be a JSON object or multipart form data.');
    }
    return { fields: (body as Record<string, unknown> | undefined) ?? {}, files: [] };
  }
  const fields: Record<string, unknown> = {};
  const files: UploadedFile[] = [];
  const largest = Math.max(1, ...Object.values(options.files).map((f) => f.maxBytes));
  try {
    for await (const part of request.parts({
      limits: { fileSize: largest, fields: 50, fieldSize: 100_000, parts: 60 },
    })) {
      if (part.type === 'field') {
        fields[part.fieldname] = part.value;
        continue;
      }
      const rule = options.files[part.fieldname];
      if (!rule) {
        part.file.resume();
        throw new HttpError(400, 'validation_failed', `Invalid field: ${part.fieldname}`, [
          { field: part.fieldname, message: `${part.fieldname} is not a file field of this form` },
        ]);
      }
      const count = files.filter((f) => f.field === part.fieldname).length;
      if (count >= (rule.maxCount ?? 1)) {
        part.file.resume();
        throw new HttpError(400, 'validation_failed', `Invalid field: ${part.fieldname}`, [
          {
            field: part.fieldname,
            message: `${part.fieldname} takes at most ${rule.maxCount ?? 1} file${(rule.maxCount ?? 1) > 1 ? 's' : ''}`,
          },
        ]);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of part.file) {
        size += (chunk as Buffer).length;
        if (size > rule.maxBytes) {
          part.file.resume();
          throw fileTooLarge(part.fieldname, rule.sizeRule);
        }
        chunks.push(chunk as Buffer);
      }
      if (part.file.truncated) throw fileTooLarge(part.fieldname, rule.sizeRule);
      files.push({
        field: part.fieldname,
        filename: part.filename,
        mimetype: part.mimetype,
        buffer: Buffer.concat(chunks),
      });
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      const field = Object.keys(options.files)[0] ?? 'file';
      throw fileTooLarge(field, options.files[field]?.sizeRule ?? 'is too large');
    }
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
      throw new HttpError(400, 'bad_request', 'The form has too many parts.');
    }
    // Anything else the parser raised (busboy's "Multipart: Boundary not found", "Unexpected end of
    // form", a malformed part header, a body cut short) is about the body the caller sent.
    throw new HttpError(400, 'bad_request', 'The multipart body is malformed.');
  }
  return { fields, files };
}

function fileTooLarge(field: string, rule: string): HttpError {
  return new HttpError(400, 'validation_failed', `Invalid field: ${field}`, [{ field, message: `${field} ${rule}` }]);
}
