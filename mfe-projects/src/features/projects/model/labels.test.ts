import { projectMoveBlocker } from './labels';

const person = { id: 'u1', firstName: 'Lea', lastName: 'Lead', email: 'lea@acme.test' };
const ready = { clientLead: person, leadConsultant: person, tasksTotal: 0 };

describe('projectMoveBlocker', () => {
  it('names why activation is sure to be refused: a missing Client Lead, then a missing Lead Consultant', () => {
    expect(projectMoveBlocker(ready, 'active')).toBeNull();
    expect(projectMoveBlocker({ ...ready, clientLead: null }, 'active')).toBe(
      'Add a Client Lead on the team roster to activate the project.',
    );
    expect(projectMoveBlocker({ ...ready, leadConsultant: null }, 'active')).toBe(
      'Add a Lead Consultant on the team roster to activate the project.',
    );
  });

  it('refuses to offer canceling a project with tasks, and blocks no other move', () => {
    expect(projectMoveBlocker({ ...ready, tasksTotal: 3 }, 'canceled')).toBe(
      'A project with tasks cannot be canceled.',
    );
    expect(projectMoveBlocker({ ...ready, tasksTotal: 0 }, 'canceled')).toBeNull();
    expect(projectMoveBlocker({ clientLead: null, leadConsultant: null, tasksTotal: 3 }, 'on_hold')).toBeNull();
  });
});
