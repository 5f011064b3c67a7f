import { checkFileContent, isExecutable, looksLikeText } from './file-types';

const bytes = (...b: number[]) => Buffer.from(b);
const text = (s: string) => Buffer.from(s, 'utf8');
const pad = (head: Buffer, n = 64) => Buffer.concat([head, Buffer.alloc(n, 0)]);

const PDF = text('%PDF-1.7\n%âãÏÓ\n');
const PNG = pad(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a));
const JPEG = pad(bytes(0xff, 0xd8, 0xff, 0xe0));
const GIF = text('GIF89a\x01\x00');
const WEBP = Buffer.concat([text('RIFF'), bytes(1, 2, 3, 4), text('WEBPVP8 ')]);
const OLE = pad(bytes(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1));
const ZIP = pad(bytes(0x50, 0x4b, 0x03, 0x04));
const EMPTY_ZIP = pad(bytes(0x50, 0x4b, 0x05, 0x06), 18);
const SEVEN_ZIP = pad(bytes(0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c));
const GZIP = pad(bytes(0x1f, 0x8b, 0x08));
const RAR = pad(bytes(0x52, 0x61, 0x72, 0x21, 0x1a, 0x07, 0x01, 0x00));
const TAR = Buffer.concat([Buffer.alloc(257, 0x61), text('ustar\u000000'), Buffer.alloc(100)]);
const EXE = Buffer.concat([text('MZ'), bytes(0x90, 0x00, 0x03, 0x00), Buffer.alloc(58), text('PE\0\0')]);
const ELF = pad(bytes(0x7f, 0x45, 0x4c, 0x46, 2, 1, 1));
const MACHO = pad(bytes(0xcf, 0xfa, 0xed, 0xfe));
const JAVA_CLASS = pad(bytes(0xca, 0xfe, 0xba, 0xbe));
const HTML = text('<!doctype html><html><script>alert(document.cookie)</script></html>');
const SVG = text('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

describe('checkFileContent', () => {
  it.each([
    ['report.pdf', PDF, 'application/pdf'],
    ['Photo.PNG', PNG, 'image/png'],
    ['photo.jpg', JPEG, 'image/jpeg'],
    ['photo.jpeg', JPEG, 'image/jpeg'],
    ['anim.gif', GIF, 'image/gif'],
    ['pic.webp', WEBP, 'image/webp'],
    ['old.doc', OLE, 'application/msword'],
    ['old.xls', OLE, 'application/vnd.ms-excel'],
    ['old.ppt', OLE, 'application/vnd.ms-powerpoint'],
    ['mail.msg', OLE, 'application/vnd.ms-outlook'],
    ['new.docx', ZIP, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['new.xlsx', ZIP, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ['new.pptx', ZIP, 'application/vnd.openxmlformats-officedocument.presentationml.presentation'],
    ['bundle.zip', ZIP, 'application/zip'],
    ['nothing.zip', EMPTY_ZIP, 'application/zip'],
    ['bundle.7z', SEVEN_ZIP, 'application/x-7z-compressed'],
    ['bundle.tar.gz', GZIP, 'application/gzip'],
    ['bundle.tgz', GZIP, 'application/gzip'],
    ['bundle.tar', TAR, 'application/x-tar'],
    ['bundle.rar', RAR, 'application/vnd.rar'],
    ['notes.txt', text('plain notes\r\n'), 'text/plain'],
    ['data.csv', text('a,b\n1,2\n'), 'text/csv'],
    ['data.tsv', text('a\tb\n'), 'text/tab-separated-values'],
    ['readme.md', text('# Título ✓\n'), 'text/markdown'],
    ['data.json', text('{"a":1}'), 'application/json'],
    ['data.xml', text('<a/>'), 'application/xml'],
    ['page.html', HTML, 'text/html'],
    ['page.htm', HTML, 'text/html'],
    ['conf.yaml', text('a: 1\n'), 'application/yaml'],
    ['app.log', text('started\n'), 'text/plain'],
    ['main.py', text('print("hi")\n'), 'text/plain'],
    ['run.sh', text('#!/bin/sh\necho hi\n'), 'text/plain'],
    ['query.sql', text('select 1;'), 'text/plain'],
    ['logo.svg', SVG, 'image/svg+xml'],
    // Windows-1252 exports (é as 0xE9) are text too
    ['export.csv', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x2c, 0x31, 0x0a]), 'text/csv'],
    // UTF-16 with its byte-order mark (Excel's "Unicode text")
    ['export.txt', Buffer.from('\ufeffab', 'utf16le'), 'text/plain'],
    // the head may end in the middle of a character
    ['cut.txt', text('ok ✓').subarray(0, 5), 'text/plain'],
    ['unknown.xyz', bytes(1, 2, 3, 0, 4), 'application/octet-stream'],
    ['no-extension', HTML, 'application/octet-stream'],
    ['text-starting-with-MZ.txt', text('MZ Corp quarterly notes'), 'text/plain'],
  ])('accepts %s as %s', (name, head, contentType) => {
    expect(checkFileContent(name, head)).toEqual({ ok: true, contentType });
  });

  it.each([
    ['report.pdf', HTML, 'report.pdf is not a PDF'],
    ['report.pdf', EXE, 'report.pdf is not a PDF'],
    ['photo.png', JPEG, 'photo.png is not a PNG image'],
    ['photo.jpg', HTML, 'photo.jpg is not a JPEG image'],
    ['new.docx', OLE, 'new.docx is not a Word document'],
    ['new.docx', EMPTY_ZIP, 'new.docx is not a Word document'],
    ['old.xls', ZIP, 'old.xls is not an Excel workbook'],
    ['bundle.zip', EXE, 'bundle.zip is not a ZIP archive'],
    ['notes.txt', EXE, 'notes.txt is a program, and programs are not accepted'],
    ['notes.txt', bytes(0x68, 0x69, 0x00, 0x01, 0x02), 'notes.txt is not a text file'],
    ['data.json', PNG, 'data.json is not a text file'],
    ['logo.svg', HTML, 'logo.svg is not an SVG image'],
    ['setup', EXE, 'setup is a program, and programs are not accepted'],
    ['tool.bin', ELF, 'tool.bin is a program, and programs are not accepted'],
    ['tool', MACHO, 'tool is a program, and programs are not accepted'],
    ['Main.dat', JAVA_CLASS, 'Main.dat is a program, and programs are not accepted'],
    ['setup.exe', EXE, 'setup.exe: .exe files are programs and are not accepted'],
    ['harmless.bat', text('echo hi'), 'harmless.bat: .bat files are programs and are not accepted'],
    ['script.PS1', text('Write-Host hi'), 'script.PS1: .ps1 files are programs and are not accepted'],
    ['app.jar', ZIP, 'app.jar: .jar files are programs and are not accepted'],
    ['lib.dll', EXE, 'lib.dll: .dll files are programs and are not accepted'],
    ['x.vbs', text('MsgBox 1'), 'x.vbs: .vbs files are programs and are not accepted'],
    ['pkg.msi', OLE, 'pkg.msi: .msi files are programs and are not accepted'],
    ['mobile.apk', ZIP, 'mobile.apk: .apk files are programs and are not accepted'],
  ])('refuses %s with its bytes: %s', (name, head, reason) => {
    expect(checkFileContent(name, head)).toEqual({ ok: false, reason });
  });
});

describe('isExecutable and looksLikeText', () => {
  it('tells programs by their first bytes', () => {
    expect([EXE, ELF, MACHO, JAVA_CLASS].map(isExecutable)).toEqual([true, true, true, true]);
    expect([PDF, PNG, ZIP, text('MZ is a prefix')].map(isExecutable)).toEqual([false, false, false, false]);
  });

  it('refuses NUL bytes and invalid UTF-8 full of control bytes', () => {
    expect(looksLikeText(text('a\u0000b'))).toBe(false);
    expect(looksLikeText(bytes(0xc3, 0x28, 0x01))).toBe(false);
    expect(looksLikeText(text(''))).toBe(true);
  });
});
