/**
 * Task tracker templates of practices (issue 7): their tasks, subtasks, controls and points of focus,
 * and copying a template's (or a file's) work into a project. Rows go in multi-row batches of 500: a
 * 20,000-row file is some forty statements, well under PostgreSQL's 65,535 bind parameters each. By
 * concern: templates.ts (the templates themselves), content.ts (what a template holds),
 * project-work.ts (copying work into a project); internal.ts holds what they share. This file names
 * what the rest of the api may use.
 */
export {
  applicableTrackers,
  clearTrackerContent,
  insertTrackerContent,
  trackerContent,
  type TrackerContent,
} from './content';
export { caseless } from './internal';
export { copyWorkIntoProject, projectTasksByReference, type ProjectWork, type ProjectWorkCounts } from './project-work';
export {
  deleteTaskTracker,
  findTaskTracker,
  insertTaskTracker,
  listTaskTrackers,
  lockTaskTracker,
  taskTrackerNameTaken,
  updateTaskTracker,
} from './templates';
