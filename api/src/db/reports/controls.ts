/**
 * The controls report (issue 9; contract shared/src/core/reports): coverage of the controls of the
 * projects in scope as of now (the period does not apply). One grouped query: the controls of the scope
 * joined to the sets of those with a linked task, with evidence, and their points of focus, counted per
 * project. The totals are the sum of the project rows, since every control belongs to exactly one project.
 */
import { sql, type Kysely } from 'kysely';
import { percentOf, type ControlsReport } from '@portal/shared/core/reports';
import type { Database } from '../schema';
import { toCount } from '../values';
import { scopeProjectIds, type ReportScope } from './scope';

type Coverage = Omit<ControlsReport['totals'], 'percentCovered'>;

/**
 * Sets joined rather than correlated EXISTS per control: PostgreSQL plans an OR of three EXISTS as
 * subplans run for every control (and, costing them high, JIT-compiles the query for longer than it runs).
 * Evidence is a file on a linked task, or an accepted request naming the control or a linked task; it is a
 * coverage fact, so every such request of the company counts, whether or not the caller may see it.
 */
function coverageByProject(db: Kysely<Database>, scope: ReportScope) {
  return db
    .with('scoped', (qb) =>
      qb
        .selectFrom('controls as c')
        .select(['c.id', 'c.project_id'])
        .where('c.project_id', 'in', scopeProjectIds(db, scope)),
    )
    .with('linked', (qb) =>
      qb
        .selectFrom('control_tasks as ct')
        .select('ct.control_id')
        .distinct()
        .where('ct.control_id', 'in', qb.selectFrom('scoped').select('scoped.id')),
    )
    .with('evidenced', (qb) => {
      const inScope = qb.selectFrom('scoped').select('scoped.id');
      const accepted = () =>
        qb.selectFrom('requests as r').where('r.company_id', '=', scope.companyId).where('r.status', '=', 'accepted');
      return qb
        .selectFrom('control_tasks as ct')
        .innerJoin('task_files as tf', 'tf.task_id', 'ct.task_id')
        .select('ct.control_id')
        .where('ct.control_id', 'in', inScope)
        .union(
          accepted().select('r.control_id').where('r.control_id', 'in', inScope).$narrowType<{ control_id: string }>(),
        )
        .union(
          accepted()
            .innerJoin('control_tasks as ct', 'ct.task_id', 'r.task_id')
            .select('ct.control_id')
            .where('ct.control_id', 'in', inScope),
        );
    })
    .with('points', (qb) =>
      qb
        .selectFrom('points_of_focus as pf')
        .select((eb) => ['pf.control_id', eb.fn.countAll().as('n')])
        .where('pf.control_id', 'in', qb.selectFrom('scoped').select('scoped.id'))
        .groupBy('pf.control_id'),
    )
    .selectFrom('scoped')
    .innerJoin('projects as p', 'p.id', 'scoped.project_id')
    .leftJoin('linked as l', 'l.control_id', 'scoped.id')
    .leftJoin('evidenced as e', 'e.control_id', 'scoped.id')
    .leftJoin('points as pt', 'pt.control_id', 'scoped.id')
    .select((eb) => [
      'p.id',
      'p.title',
      eb.fn.countAll().as('controls'),
      eb.fn.count('l.control_id').as('with_tasks'),
      eb.fn.count('e.control_id').as('with_evidence'),
      eb.fn.sum('pt.n').as('points'),
      eb.fn.sum(eb.case().when('e.control_id', 'is not', null).then(eb.ref('pt.n')).end()).as('points_covered'),
    ])
    .groupBy(['p.id', 'p.title'])
    .orderBy(sql`lower(p.title)`)
    .orderBy('p.id');
}

export async function controlsReport(
  db: Kysely<Database>,
  scope: ReportScope,
): Promise<Omit<ControlsReport, 'kind' | 'meta'>> {
  const rows = await coverageByProject(db, scope).execute();
  const byProject = rows.map((r) => {
    const coverage: Coverage = {
      controls: toCount(r.controls),
      withTasks: toCount(r.with_tasks),
      withEvidence: toCount(r.with_evidence),
      pointsOfFocus: toCount(r.points),
      pointsOfFocusCovered: toCount(r.points_covered),
    };
    return {
      projectId: r.id,
      title: r.title,
      ...coverage,
      percentCovered: percentOf(coverage.withEvidence, coverage.controls),
    };
  });
  const sum = (key: keyof Coverage) => byProject.reduce((total, p) => total + p[key], 0);
  const totals: Coverage = {
    controls: sum('controls'),
    withTasks: sum('withTasks'),
    withEvidence: sum('withEvidence'),
    pointsOfFocus: sum('pointsOfFocus'),
    pointsOfFocusCovered: sum('pointsOfFocusCovered'),
  };
  return { totals: { ...totals, percentCovered: percentOf(totals.withEvidence, totals.controls) }, byProject };
}
