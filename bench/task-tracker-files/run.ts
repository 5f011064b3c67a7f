/**
 * bench/task-tracker-files: how long reading and writing task tracker files takes (issue 7), and what
 * refusing a zip bomb costs. For 10,000 and 20,000 rows: the .xlsx archive check alone, reading a .csv
 * and an .xlsx, writing each; then the zip bombs of api/src/test/task-tracker-files.ts (1 GB of zeros
 * in ~1 MB, headers honest or lying), with the peak growth of the process memory while refused.
 * Prints the median of the runs per case. Exits 1 when the archive check of 10,000 rows takes a second
 * or more, or a bomb takes 2 s or grows memory by 64 MB or more.
 *
 * Run: npm run bench:files -w bench [-- --runs=N (5)]
 */
import { HttpError } from '../../api/src/lib/http-error';
import { checkXlsxArchive } from '../../api/src/lib/xlsx-guard';
import { trackerRows, writeTaskTrackerFile } from '../../api/src/modules/task-trackers/task-tracker-export';
import { parseTaskTrackerFile } from '../../api/src/modules/task-trackers/task-tracker-file';
import { manyRows, trackerCsv, trackerXlsx, zipBombXlsx } from '../../api/src/test/task-tracker-files';
import { count, ms, table } from '../api/measure';

const MB = 1024 * 1024;
/** A task tracker's refusal of an unreadable workbook, as the import routes make it. */
const refuse = (message: string) => new HttpError(400, 'malformed_task_tracker', message);
const runsArg = process.argv.find((a) => a.startsWith('--runs='));
const RUNS = runsArg ? Number(runsArg.slice('--runs='.length)) : 5;

async function median(work: () => Promise<unknown>): Promise<number> {
  await work(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

async function main() {
  const rows: string[][] = [];
  const failures: string[] = [];
  for (const size of [10_000, 20_000]) {
    const csv = trackerCsv(manyRows(size));
    const xlsx = await trackerXlsx(manyRows(size));
    const content = await parseTaskTrackerFile('bench.csv', csv);
    const exportRows = trackerRows(content.tasks, content.controls);
    const guard = await median(() => checkXlsxArchive(xlsx, refuse));
    if (size === 10_000 && guard >= 1000)
      failures.push(`the archive check of ${count(size)} rows took ${ms(guard)} ms`);
    rows.push([`${count(size)} rows: .xlsx archive check`, ms(guard), `${(xlsx.length / 1024).toFixed(0)} KB`]);
    rows.push([
      `${count(size)} rows: read .csv`,
      ms(await median(() => parseTaskTrackerFile('bench.csv', csv))),
      `${(csv.length / 1024).toFixed(0)} KB`,
    ]);
    rows.push([
      `${count(size)} rows: read .xlsx`,
      ms(await median(() => parseTaskTrackerFile('bench.xlsx', xlsx))),
      '',
    ]);
    rows.push([`${count(size)} rows: write .csv`, ms(await median(() => writeTaskTrackerFile(exportRows, 'csv'))), '']);
    rows.push([
      `${count(size)} rows: write .xlsx`,
      ms(await median(() => writeTaskTrackerFile(exportRows, 'xlsx'))),
      '',
    ]);
  }

  for (const [label, declared] of [
    ['zip bomb, honest headers', undefined],
    ['zip bomb, headers claim 1 KB', 1024],
    ['zip bomb, headers claim 29 MB (under the limit)', 29 * MB],
  ] as const) {
    const bomb = zipBombXlsx(declared);
    const before = process.memoryUsage.rss();
    let peak = before;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 1);
    const time = await median(() =>
      checkXlsxArchive(bomb, refuse).then(
        () => Promise.reject(new Error(`${label} was accepted`)),
        () => undefined,
      ),
    );
    clearInterval(timer);
    const growth = (peak - before) / MB;
    if (time >= 2000 || growth >= 64) failures.push(`${label}: ${ms(time)} ms, +${growth.toFixed(1)} MB`);
    rows.push([label, ms(time), `+${growth.toFixed(1)} MB RSS`]);
  }

  console.log(`Task tracker files, median of ${RUNS} runs\n`);
  console.log(table(['case', 'ms', 'size / memory'], rows));
  if (failures.length) {
    console.error(`\nOver budget:\n- ${failures.join('\n- ')}`);
    process.exit(1);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
