/**
 * The content check of uploads (issue 6): the type a file is served with comes from its bytes and must
 * agree with its name's extension; executables are refused whatever their name.
 */
import { fileExtension } from '@portal/shared/core/files';

export type ContentCheck = { ok: true; contentType: string } | { ok: false; reason: string };

type Signature = (head: Buffer) => boolean;

const starts =
  (...bytes: number[]): Signature =>
  (head) =>
    head.length >= bytes.length && bytes.every((b, i) => head[i] === b);
const ascii =
  (text: string, offset = 0): Signature =>
  (head) =>
    head.length >= offset + text.length && head.toString('latin1', offset, offset + text.length) === text;
const anyOf =
  (...signatures: Signature[]): Signature =>
  (head) =>
    signatures.some((s) => s(head));

const PDF: Signature = (head) => head.subarray(0, 1024).includes('%PDF-', 0, 'latin1');
const PNG = starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
const JPEG = starts(0xff, 0xd8, 0xff);
const GIF = anyOf(ascii('GIF87a'), ascii('GIF89a'));
const WEBP: Signature = (head) => ascii('RIFF')(head) && ascii('WEBP', 8)(head);
const BMP = ascii('BM');
const TIFF = anyOf(starts(0x49, 0x49, 0x2a, 0x00), starts(0x4d, 0x4d, 0x00, 0x2a));
const OLE = starts(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1);
const ZIP_ENTRY = starts(0x50, 0x4b, 0x03, 0x04);
const ZIP = anyOf(ZIP_ENTRY, starts(0x50, 0x4b, 0x05, 0x06), starts(0x50, 0x4b, 0x07, 0x08));
const SEVEN_ZIP = starts(0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c);
const GZIP = starts(0x1f, 0x8b);
const BZIP2 = ascii('BZh');
const XZ = starts(0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00);
const TAR = ascii('ustar', 257);
const RAR = anyOf(
  starts(0x52, 0x61, 0x72, 0x21, 0x1a, 0x07, 0x00),
  starts(0x52, 0x61, 0x72, 0x21, 0x1a, 0x07, 0x01, 0x00),
);
const RTF = ascii('{\\rtf');

interface BinaryType {
  contentType: string;
  /** For the refusal: "<name> is not <label>". */
  label: string;
  matches: Signature;
}

const binary = (contentType: string, label: string, matches: Signature): BinaryType => ({
  contentType,
  label,
  matches,
});

/** Types told by their first bytes. */
const BINARY_TYPES: Record<string, BinaryType> = {
  pdf: binary('application/pdf', 'a PDF', PDF),
  png: binary('image/png', 'a PNG image', PNG),
  jpg: binary('image/jpeg', 'a JPEG image', JPEG),
  jpeg: binary('image/jpeg', 'a JPEG image', JPEG),
  gif: binary('image/gif', 'a GIF image', GIF),
  webp: binary('image/webp', 'a WebP image', WEBP),
  bmp: binary('image/bmp', 'a BMP image', BMP),
  tif: binary('image/tiff', 'a TIFF image', TIFF),
  tiff: binary('image/tiff', 'a TIFF image', TIFF),
  doc: binary('application/msword', 'a Word document', OLE),
  dot: binary('application/msword', 'a Word template', OLE),
  xls: binary('application/vnd.ms-excel', 'an Excel workbook', OLE),
  ppt: binary('application/vnd.ms-powerpoint', 'a PowerPoint presentation', OLE),
  msg: binary('application/vnd.ms-outlook', 'an Outlook message', OLE),
  vsd: binary('application/vnd.visio', 'a Visio drawing', OLE),
  docx: binary('application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'a Word document', ZIP_ENTRY),
  xlsx: binary('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'an Excel workbook', ZIP_ENTRY),
  pptx: binary(
    'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    'a PowerPoint presentation',
    ZIP_ENTRY,
  ),
  vsdx: binary('application/vnd.ms-visio.drawing', 'a Visio drawing', ZIP_ENTRY),
  odt: binary('application/vnd.oasis.opendocument.text', 'an OpenDocument text', ZIP_ENTRY),
  ods: binary('application/vnd.oasis.opendocument.spreadsheet', 'an OpenDocument spreadsheet', ZIP_ENTRY),
  odp: binary('application/vnd.oasis.opendocument.presentation', 'an OpenDocument presentation', ZIP_ENTRY),
  zip: binary('application/zip', 'a ZIP archive', ZIP),
  '7z': binary('application/x-7z-compressed', 'a 7-Zip archive', SEVEN_ZIP),
  gz: binary('application/gzip', 'a gzip archive', GZIP),
  tgz: binary('application/gzip', 'a gzip archive', GZIP),
  bz2: binary('application/x-bzip2', 'a bzip2 archive', BZIP2),
  xz: binary('application/x-xz', 'an xz archive', XZ),
  tar: binary('application/x-tar', 'a tar archive', TAR),
  rar: binary('application/vnd.rar', 'a RAR archive', RAR),
  rtf: binary('application/rtf', 'an RTF document', RTF),
};

/** Types that must look like text, and the type they are served with. */
const TEXT_TYPES: Record<string, string> = {
  txt: 'text/plain',
  text: 'text/plain',
  log: 'text/plain',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  md: 'text/markdown',
  markdown: 'text/markdown',
  json: 'application/json',
  xml: 'application/xml',
  html: 'text/html',
  htm: 'text/html',
  css: 'text/css',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  toml: 'text/plain',
  ini: 'text/plain',
  conf: 'text/plain',
  cfg: 'text/plain',
  properties: 'text/plain',
  eml: 'message/rfc822',
  ics: 'text/calendar',
  js: 'text/plain',
  mjs: 'text/plain',
  cjs: 'text/plain',
  jsx: 'text/plain',
  ts: 'text/plain',
  tsx: 'text/plain',
  py: 'text/plain',
  java: 'text/plain',
  kt: 'text/plain',
  scala: 'text/plain',
  c: 'text/plain',
  h: 'text/plain',
  cpp: 'text/plain',
  cc: 'text/plain',
  hpp: 'text/plain',
  cs: 'text/plain',
  go: 'text/plain',
  rs: 'text/plain',
  rb: 'text/plain',
  php: 'text/plain',
  pl: 'text/plain',
  swift: 'text/plain',
  r: 'text/plain',
  sh: 'text/plain',
  bash: 'text/plain',
  zsh: 'text/plain',
  sql: 'text/plain',
  tf: 'text/plain',
  hcl: 'text/plain',
  tex: 'text/plain',
  pem: 'text/plain',
  crt: 'text/plain',
  csr: 'text/plain',
};

const SVG_TYPE = 'image/svg+xml';

/** Run by the operating system when opened: refused whatever the bytes. */
const EXECUTABLE_EXTENSIONS = new Set([
  'exe',
  'dll',
  'bat',
  'cmd',
  'com',
  'msi',
  'msp',
  'mst',
  'scr',
  'pif',
  'cpl',
  'ps1',
  'psm1',
  'psd1',
  'vbs',
  'vbe',
  'vb',
  'jse',
  'wsf',
  'wsh',
  'wsc',
  'hta',
  'sct',
  'lnk',
  'reg',
  'inf',
  'scf',
  'chm',
  'gadget',
  'msc',
  'jar',
  'class',
  'app',
  'apk',
  'aab',
  'ipa',
  'appx',
  'appxbundle',
  'msix',
  'msixbundle',
  'xbap',
  'application',
  'sys',
  'drv',
  'ocx',
  'so',
  'dylib',
  'elf',
  'run',
  'command',
  'workflow',
  'action',
  'deb',
  'rpm',
  'dmg',
  'pkg',
  'mpkg',
]);

/** Programs by their first bytes: Windows (MZ), Linux (ELF), macOS (Mach-O, fat binaries) and Java classes. */
export function isExecutable(head: Buffer): boolean {
  // A DOS header is full of zero bytes; a text that happens to start with "MZ" is not.
  if (ascii('MZ')(head) && head.subarray(0, 64).includes(0)) return true;
  return (
    starts(0x7f, 0x45, 0x4c, 0x46)(head) ||
    starts(0xfe, 0xed, 0xfa, 0xce)(head) ||
    starts(0xfe, 0xed, 0xfa, 0xcf)(head) ||
    starts(0xce, 0xfa, 0xed, 0xfe)(head) ||
    starts(0xcf, 0xfa, 0xed, 0xfe)(head) ||
    starts(0xca, 0xfe, 0xba, 0xbe)(head)
  );
}

/** The length of a valid UTF-8 sequence at `i`, 0 when invalid, -1 when cut off by the end of `bytes`. */
function utf8SequenceLength(bytes: Buffer, i: number): number {
  const b = bytes[i];
  let length: number;
  let min: number;
  if (b < 0x80) return 1;
  if (b >= 0xc2 && b <= 0xdf) [length, min] = [2, 0x80];
  else if (b >= 0xe0 && b <= 0xef) [length, min] = [3, 0x800];
  else if (b >= 0xf0 && b <= 0xf4) [length, min] = [4, 0x10000];
  else return 0;
  let code = b & (0xff >> (length + 1));
  for (let k = 1; k < length; k++) {
    if (i + k >= bytes.length) return -1;
    const c = bytes[i + k];
    if ((c & 0xc0) !== 0x80) return 0;
    code = (code << 6) | (c & 0x3f);
  }
  if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return 0;
  return length;
}

/** Valid UTF-8, except that the last character may be cut off (the head is a prefix of the file). */
function isUtf8Prefix(bytes: Buffer): boolean {
  let i = 0;
  while (i < bytes.length) {
    const length = utf8SequenceLength(bytes, i);
    if (length === -1) return true;
    if (length === 0) return false;
    i += length;
  }
  return true;
}

/**
 * Text: no NUL byte, and UTF-8 (with or without its byte-order mark), UTF-16 with its byte-order mark,
 * or a legacy 8-bit encoding (Windows-1252 CSV exports) without the control bytes binaries are full of.
 */
export function looksLikeText(head: Buffer): boolean {
  if (starts(0xff, 0xfe)(head) || starts(0xfe, 0xff)(head)) return head.length % 2 === 0 || head.length >= 4100;
  if (head.includes(0)) return false;
  if (isUtf8Prefix(head)) return true;
  for (const b of head) {
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0c && b !== 0x0d && b !== 0x1b) return false;
  }
  return true;
}

function looksLikeSvg(head: Buffer): boolean {
  return looksLikeText(head) && /<svg[\s>]/i.test(head.toString('utf8'));
}

/** `name` is the display name; `head` the first bytes (up to 4100). */
export function checkFileContent(name: string, head: Buffer): ContentCheck {
  const extension = fileExtension(name);
  if (EXECUTABLE_EXTENSIONS.has(extension))
    return { ok: false, reason: `${name}: .${extension} files are programs and are not accepted` };
  const known = BINARY_TYPES[extension];
  if (known) {
    return known.matches(head)
      ? { ok: true, contentType: known.contentType }
      : { ok: false, reason: `${name} is not ${known.label}` };
  }
  if (isExecutable(head)) return { ok: false, reason: `${name} is a program, and programs are not accepted` };
  if (extension === 'svg')
    return looksLikeSvg(head)
      ? { ok: true, contentType: SVG_TYPE }
      : { ok: false, reason: `${name} is not an SVG image` };
  const text = TEXT_TYPES[extension];
  if (text)
    return looksLikeText(head) ? { ok: true, contentType: text } : { ok: false, reason: `${name} is not a text file` };
  return { ok: true, contentType: 'application/octet-stream' };
}
