/**
 * The demo projects' folders and files (issue 6): every project gets its root and a few folders; the
 * projects of FILE_PROJECTS get a handful of small real files (a PDF with two versions, a PNG, a CSV, a
 * text file) stored through the blob storage, one of them attached to a task. Row content is the same
 * on every run (names, sizes, hashes; times are relative to the seed). Without a storage (tests of the
 * seed alone) only the folders are made: a row never names bytes that are not there.
 */
import { randomUUID } from 'node:crypto';
import type { Insertable, Kysely } from 'kysely';
import type { ProjectStatus } from '@portal/shared/core/projects';
import { checkFileContent } from '../lib/file-types';
import type { BlobStorage } from '../lib/storage';
import { ROOT_FOLDER_NAME } from './folders';
import { insertInBatches } from './seed-projects';
import type { Database, FileVersionsTable, FilesTable, FoldersTable, TaskFilesTable } from './schema';

const MINUTE = 60_000;
const DAY = 86_400_000;

export interface SeededProject {
  id: string;
  companyId: string;
  title: string;
  status: ProjectStatus;
  createdAtMs: number;
  /** Who uploads: the Lead Consultant (or creator) and the Client Lead, when the project has them. */
  staffId: string | null;
  clientId: string | null;
}

/** The folders under each root: [name, parent name or null for the root]. */
const FOLDERS: [name: string, parent: string | null][] = [
  ['Policies', null],
  ['Evidence', null],
  ['Q1', 'Evidence'],
  ['Reports', null],
];

/** The projects that get files (active and completed work of Acme Corp and Globex Inc). */
export const FILE_PROJECTS = ['Acme SOC 2 Type II 2026', 'Acme ISO 27001 Gap Analysis', 'Globex HIPAA Risk Assessment'];

/** A minimal valid one-page PDF showing `text` (offsets of the cross-reference table computed). */
export function tinyPdf(text: string): Buffer {
  const stream = `BT /F1 18 Tf 72 720 Td (${text.replace(/[()\\]/g, '')}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** A 1x1 PNG. */
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

interface DemoFile {
  folder: string | null;
  name: string;
  /** One buffer per version, oldest first. */
  versions: (title: string) => Buffer[];
  /** Attached to the project's first task. */
  onTask?: boolean;
}

const DEMO_FILES: DemoFile[] = [
  {
    folder: 'Policies',
    name: 'Information Security Policy.pdf',
    versions: (title) => [
      tinyPdf(`${title}: Information Security Policy, draft`),
      tinyPdf(`${title}: Information Security Policy, approved`),
    ],
  },
  { folder: 'Q1', name: 'Network diagram.png', versions: () => [PNG_1X1] },
  {
    folder: 'Evidence',
    name: 'Access review.csv',
    versions: () => [
      Buffer.from('user,system,access,reviewed\nlaura.chen,AWS,admin,yes\nmarcus.bell,GitHub,write,yes\n', 'utf8'),
    ],
    onTask: true,
  },
  {
    folder: null,
    name: 'Read me.txt',
    versions: (title) => [Buffer.from(`Evidence for ${title} goes in Evidence; policies in Policies.\n`, 'utf8')],
  },
];

export async function seedProjectFiles(
  db: Kysely<Database>,
  projects: SeededProject[],
  storage: BlobStorage | undefined,
  now: number,
): Promise<void> {
  const folders: Insertable<FoldersTable>[] = [];
  const files: Insertable<FilesTable>[] = [];
  const versions: Insertable<FileVersionsTable>[] = [];
  const taskFiles: Insertable<TaskFilesTable>[] = [];
  for (const project of projects) {
    const createdAt = new Date(project.createdAtMs).toISOString();
    const ids = new Map<string | null, string>([[null, randomUUID()]]);
    folders.push({
      id: ids.get(null)!,
      project_id: project.id,
      parent_id: null,
      name: ROOT_FOLDER_NAME,
      created_by: project.staffId,
      created_at: createdAt,
    });
    for (const [name, parent] of FOLDERS) {
      ids.set(name, randomUUID());
      folders.push({
        id: ids.get(name)!,
        project_id: project.id,
        parent_id: ids.get(parent)!,
        name,
        created_by: project.staffId,
        created_at: createdAt,
      });
    }
    if (!storage || !FILE_PROJECTS.includes(project.title) || project.status === 'canceled') continue;
    const firstTask = await db
      .selectFrom('tasks')
      .select('id')
      .where('project_id', '=', project.id)
      .where('parent_id', 'is', null)
      .orderBy('reference_id')
      .limit(1)
      .executeTakeFirst();
    const start = Math.max(project.createdAtMs + DAY, now - 20 * DAY);
    for (const [index, demo] of DEMO_FILES.entries()) {
      const fileId = randomUUID();
      const buffers = demo.versions(project.title);
      let current: Insertable<FileVersionsTable> | null = null;
      for (const [v, buffer] of buffers.entries()) {
        const check = checkFileContent(demo.name, buffer.subarray(0, 4100));
        if (!check.ok) throw new Error(`seed file ${demo.name}: ${check.reason}`);
        const stored = await storage.putBuffer(buffer);
        const uploader = v > 0 && project.clientId ? project.clientId : project.staffId;
        current = {
          id: randomUUID(),
          file_id: fileId,
          version: v + 1,
          size: stored.size,
          sha256: stored.sha256,
          content_type: check.contentType,
          storage_key: stored.key,
          uploaded_by: uploader,
          created_at: new Date(start + index * 60 * MINUTE + v * 3 * DAY).toISOString(),
        };
        versions.push(current);
      }
      if (!current) continue;
      files.push({
        id: fileId,
        project_id: project.id,
        company_id: project.companyId,
        folder_id: ids.get(demo.folder)!,
        name: demo.name,
        content_type: current.content_type,
        size: current.size,
        uploaded_by: current.uploaded_by,
        current_version_id: current.id,
        created_at: versions.find((r) => r.file_id === fileId)!.created_at,
        updated_at: current.created_at,
      });
      if (demo.onTask && firstTask)
        taskFiles.push({
          task_id: firstTask.id,
          file_id: fileId,
          created_by: project.staffId,
          created_at: current.created_at,
        });
    }
  }
  // parents before their children: the rows go in batches, in this order
  await insertInBatches(
    db,
    'folders',
    folders.filter((f) => f.parent_id === null),
  );
  await insertInBatches(
    db,
    'folders',
    folders.filter((f) => f.parent_id !== null && FOLDERS.find(([name]) => name === f.name)?.[1] === null),
  );
  await insertInBatches(
    db,
    'folders',
    folders.filter((f) => f.parent_id !== null && FOLDERS.find(([name]) => name === f.name)?.[1] !== null),
  );
  await insertInBatches(db, 'files', files);
  await insertInBatches(db, 'file_versions', versions);
  await insertInBatches(db, 'task_files', taskFiles);
}
