import { historyText } from './history-text';
import { makeEvent } from '../testing/fixtures';

describe('history texts', () => {
  it.each([
    [makeEvent('e1', 'created'), 'created the request'],
    [makeEvent('e1', 'imported'), 'imported the request'],
    [makeEvent('e1', 'updated', { fields: ['title', 'priority'] }), 'changed title, priority'],
    [makeEvent('e1', 'updated', { fields: ['title', 'dueDate'] }), 'changed title, due date'],
    [makeEvent('e1', 'updated', { fields: ['description', 'internalNote'] }), 'changed description, internal note'],
    [makeEvent('e1', 'updated', { fields: ['projectId', 'taskId', 'controlId'] }), 'changed project, task, control'],
    [makeEvent('e1', 'updated', { fields: ['assigneeIds', 'teamIds', 'dueDate'] }), 'changed assignees, due date'],
    [makeEvent('e1', 'updated', { fields: ['someNewField'] }), 'changed some new field'],
    [
      makeEvent('e1', 'assigned', { users: ['Lee Lead', 'Ann Lee'], teams: ['IT'] }),
      'assigned Lee Lead, Ann Lee, Team: IT',
    ],
    [makeEvent('e1', 'unassigned', { users: [], teams: ['IT'] }), 'unassigned Team: IT'],
    [makeEvent('e1', 'status', { from: 'open', to: 'submitted' }), 'changed the status to Submitted'],
    [makeEvent('e1', 'status', { action: 'submit' }), 'submitted the evidence'],
    [
      makeEvent('e1', 'status', { action: 'return', reason: 'Rule 12 missing' }),
      'returned the request: Rule 12 missing',
    ],
    [makeEvent('e1', 'status', { action: 'accept' }), 'accepted the evidence'],
    [makeEvent('e1', 'status', { action: 'cancel' }), 'canceled the request'],
    [makeEvent('e1', 'status', { action: 'reopen' }), 'reopened the request'],
    [makeEvent('e1', 'file_added', { name: 'rules.pdf' }), 'added rules.pdf'],
    [makeEvent('e1', 'file_removed', { name: 'rules.pdf' }), 'removed rules.pdf'],
    [makeEvent('e1', 'comment', { internal: false }), 'commented'],
    [makeEvent('e1', 'comment', { internal: true }), 'added an internal note'],
  ])('%#: %j reads "%s"', (event, text) => {
    expect(historyText(event)).toBe(text);
  });
});
