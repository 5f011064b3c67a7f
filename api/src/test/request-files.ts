/**
 * Request files for tests and the benchmark (issue 8): rows of a request import file built
 * independently of modules/imports/request-file.ts, so the reader is tested against files it did not write.
 */
import { REQUEST_FILE_IMPORTED_COLUMNS } from '@portal/shared/core/requests';
import { trackerCsv, type FixtureRow } from './task-tracker-files';

/** What the rows of a large file name: the company's client members (three), one of its teams, two of its projects. */
export interface RequestFileNames {
  emails: [string, string, string];
  team: string;
  projects: [string, string];
}

/** A .csv with the imported columns (or `columns`) and these rows. */
export const requestCsv = (rows: FixtureRow[], columns: readonly string[] = REQUEST_FILE_IMPORTED_COLUMNS) =>
  trackerCsv(rows, columns);

/**
 * Request i of a large file: every tenth with a reference of its own (EXT-i), every fiftieth title a
 * formula, descriptions on two lines (some starting with +), priorities in every spelling, due dates
 * in both forms, assignees in four combinations (people by e-mail in any case, the team by name in any
 * case, separated by `;` or a new line) and projects by title in any case.
 */
export function requestFileRow(i: number, names: RequestFileNames): FixtureRow {
  const [first, second, third] = names.emails;
  return {
    Reference: i % 10 === 0 ? `EXT-${i}` : '',
    Title: i % 50 === 1 ? `=HYPERLINK("http://evil.test","Request ${i}")` : `Request ${i}`,
    Description: i % 3 === 0 ? '' : `${i % 6 === 1 ? '+' : ''}What request ${i} needs\nOn two lines`,
    Priority: ['Low', 'medium', 'HIGH', 'Critical', ''][i % 5],
    'Due Date': ['', '2026-07-15', '8/1/2026', '12/31/2027'][i % 4],
    Assignees: ['', first, `${second.toUpperCase()}; ${names.team}`, `${names.team.toLowerCase()}\n${third}`][i % 4],
    Project: ['', names.projects[0], names.projects[1].toLowerCase()][i % 3],
  };
}

/** Request i of requestFileRow as it reads back from an export: the same content in the spelling the export uses. */
export function exportedFileRow(i: number, names: RequestFileNames) {
  const row = requestFileRow(i, names);
  const [first, second, third] = names.emails;
  return {
    title: row.Title!,
    description: row.Description || null,
    priority: (['low', 'medium', 'high', 'critical', 'medium'] as const)[i % 5],
    dueDate: [null, '2026-07-15', '2026-08-01', '2027-12-31'][i % 4],
    assignees: [[], [first], [second, names.team], [third, names.team]][i % 4],
    project: [null, ...names.projects][i % 3],
  };
}
