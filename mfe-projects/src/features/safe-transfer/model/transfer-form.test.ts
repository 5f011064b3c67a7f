import { File as NodeFile } from 'node:buffer';
import { TRANSFER_MAX_FILES } from '@portal/shared/core/files';
import { addFiles, expiryLabel } from './transfer-form';

const file = (name: string, size = 10) => new NodeFile([new Uint8Array(size)], name) as unknown as File;

describe('addFiles', () => {
  it(`keeps at most ${TRANSFER_MAX_FILES} files and names the ones turned away`, () => {
    const many = Array.from({ length: TRANSFER_MAX_FILES + 2 }, (_, i) => file(`f${i}.pdf`));
    const { files, rejected } = addFiles([], many);
    expect(files).toHaveLength(TRANSFER_MAX_FILES);
    expect(rejected).toEqual([
      `f${TRANSFER_MAX_FILES}.pdf was not added: a transfer takes at most ${TRANSFER_MAX_FILES} files.`,
      `f${TRANSFER_MAX_FILES + 1}.pdf was not added: a transfer takes at most ${TRANSFER_MAX_FILES} files.`,
    ]);
  });

  it('does not add the same file twice, and shows names without their path', () => {
    const one = file('a.pdf');
    expect(addFiles([one], [one]).files).toEqual([one]);
    expect(addFiles([], [file('../../x.txt', 0)]).rejected).toEqual(['x.txt is empty.']);
  });
});

describe('expiryLabel', () => {
  const now = Date.parse('2026-11-21T12:00:00.000Z');
  const at = (ms: number) => new Date(now + ms).toISOString();
  it.each([
    [at(3 * 86_400_000 - 60_000), 'Expires in 3 days'],
    [at(86_400_000), 'Expires in 1 day'],
    [at(5 * 3_600_000 + 10), 'Expires in 5 hours'],
    [at(10 * 60_000), 'Expires within the hour'],
    [at(-1), 'Expired'],
  ])('%s reads "%s"', (expiresAt, label) => {
    expect(expiryLabel(expiresAt, now)).toBe(label);
  });
});
