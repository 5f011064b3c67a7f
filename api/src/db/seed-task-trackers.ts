/**
 * The demo practices' task tracker templates (issue 7): each seeded practice gets one published
 * template, built from the framework catalogue its projects use (seed-catalogue.ts), and one draft,
 * so the Practices & Templates pages and the Apply template dialog have something to show.
 */
import type { Kysely } from 'kysely';
import { CATALOGUES, type Catalogue, type CatalogueName } from './seed-catalogue';
import type { Database } from './schema';
import { insertTaskTracker, insertTrackerContent, type TrackerContent } from './task-trackers';

interface DemoTemplate {
  name: string;
  description: string;
  status: 'published' | 'draft';
  catalogue: CatalogueName;
  /** The catalogue sections it covers: each becomes a control and a task with subtasks. */
  sections: string[];
  /** The prefix of its Task IDs. */
  prefix: string;
  /** Subtasks per task, taken from the catalogue's steps. */
  steps: number;
}

const DEMO_TEMPLATES: Record<string, DemoTemplate[]> = {
  'SOC 2 Readiness': [
    {
      name: 'SOC 2 Security Readiness',
      description: 'Walkthroughs and evidence requests across the Common Criteria, ending in a gap report.',
      status: 'published',
      catalogue: 'soc2',
      sections: [
        'CC1.1',
        'CC1.4',
        'CC2.2',
        'CC3.2',
        'CC4.1',
        'CC5.3',
        'CC6.1',
        'CC6.2',
        'CC6.6',
        'CC7.2',
        'CC7.4',
        'CC8.1',
        'CC9.2',
      ],
      prefix: 'SOC',
      steps: 3,
    },
    {
      name: 'SOC 2 Availability add-on',
      description: 'Draft: continuity and recovery criteria for clients adding Availability to their scope.',
      status: 'draft',
      catalogue: 'soc2',
      sections: ['CC7.5', 'CC9.1'],
      prefix: 'AVL',
      steps: 2,
    },
  ],
  'PCI DSS Assessment': [
    {
      name: 'PCI DSS v4.0 Assessment',
      description: 'Testing procedures for the cardholder data environment, from network security controls to policy.',
      status: 'published',
      catalogue: 'pci',
      sections: ['1.1', '1.2', '2.2', '3.5', '4.2', '5.2', '6.3', '7.2', '8.3', '9.4', '10.2', '11.3', '12.1'],
      prefix: 'PCI',
      steps: 2,
    },
    {
      name: 'PCI DSS Scoping Workshop',
      description: 'Draft: the scoping and segmentation questions asked before the assessment starts.',
      status: 'draft',
      catalogue: 'pci',
      sections: ['1.2', '12.1'],
      prefix: 'SCP',
      steps: 1,
    },
  ],
};

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** The template's rows: per section a control, a task linked to it (verbs taken in turn) and its subtasks. */
function contentOf(template: DemoTemplate): TrackerContent {
  const catalogue: Catalogue = CATALOGUES[template.catalogue];
  const sections = template.sections.map((name) => {
    const found = catalogue.sections.find((s) => s.name === name);
    if (!found) throw new Error(`seed: no section ${name} in ${template.catalogue}`);
    return found;
  });
  const content: TrackerContent = { tasks: [], controls: [] };
  sections.forEach((section, i) => {
    const referenceId = `${template.prefix}-${String(i + 1).padStart(2, '0')}`;
    const verb = catalogue.verbs[i % catalogue.verbs.length];
    content.controls.push({
      name: section.name,
      title: section.title,
      description: null,
      pointsOfFocus: section.pointsOfFocus,
    });
    content.tasks.push({
      referenceId,
      parentReferenceId: null,
      title: `${verb}${section.work[i % section.work.length]}`,
      description: `Covers ${section.name}: ${lowerFirst(section.title)}`,
      controlName: section.name,
    });
    catalogue.steps.slice(0, template.steps).forEach((step, s) => {
      content.tasks.push({
        referenceId: `${referenceId}.${s + 1}`,
        parentReferenceId: referenceId,
        title: step,
        description: null,
        controlName: section.name,
      });
    });
  });
  return content;
}

/** Seeds the templates of the practices in `practiceIds` (by name), created by `createdBy`. */
export async function seedTaskTrackers(
  db: Kysely<Database>,
  practiceIds: Map<string, string>,
  createdBy: string | null,
): Promise<void> {
  for (const [practice, templates] of Object.entries(DEMO_TEMPLATES)) {
    const practiceId = practiceIds.get(practice);
    if (!practiceId) continue;
    for (const template of templates) {
      const id = await insertTaskTracker(db, {
        practiceId,
        name: template.name,
        description: template.description,
        status: template.status,
        createdBy,
      });
      await insertTrackerContent(db, id, contentOf(template));
    }
  }
}
