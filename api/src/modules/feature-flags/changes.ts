/**
 * Which flag definitions are current, and who must hear when they change. Writes through this
 * instance announce themselves at once; writes through other instances (PostgreSQL behind a
 * proxy) are found by a cheap revision query every FLAG_CHANGE_POLL_MS while anyone listens.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { FLAG_CHANGE_POLL_MS } from '@portal/shared/core/feature-flags';
import { featureFlagsRevision, listFeatureFlags } from '../../db/feature-flags';
import type { Database } from '../../db/schema';
import { compileFlag, type CompiledFlag } from '../../lib/flag-evaluation';

export interface FlagSnapshot {
  flags: CompiledFlag[];
  version: string;
}

export type FlagListener = (snapshot: FlagSnapshot) => void;

/** Reads the revision before the definitions: a write in between makes the next poll read again. */
export async function readFlagSnapshot(db: Kysely<Database>, log?: FastifyBaseLogger): Promise<FlagSnapshot> {
  const version = await featureFlagsRevision(db);
  const flags = (await listFeatureFlags(db)).map(compileFlag);
  for (const flag of flags) {
    if (!flag.ok)
      log?.warn(
        { flag: flag.key, problem: flag.problem },
        'feature flag definition is broken: it serves its default or nothing',
      );
  }
  return { flags, version };
}

export class FeatureFlagChanges {
  readonly #db: Kysely<Database>;
  readonly #log: FastifyBaseLogger;
  readonly #pollMs: number;
  readonly #listeners = new Set<FlagListener>();
  #timer: ReturnType<typeof setInterval> | null = null;
  #lastRevision: string | null = null;
  // Reads and announcements run one at a time, so listeners see snapshots in the order they were read.
  #queue: Promise<unknown> = Promise.resolve();
  #closed = false;

  constructor(db: Kysely<Database>, log: FastifyBaseLogger, pollMs = FLAG_CHANGE_POLL_MS) {
    this.#db = db;
    this.#log = log;
    this.#pollMs = pollMs;
  }

  get listenerCount(): number {
    return this.#listeners.size;
  }

  subscribe(listener: FlagListener): () => void {
    this.#listeners.add(listener);
    if (!this.#timer && !this.#closed) {
      this.#timer = setInterval(() => void this.poll(), this.#pollMs);
      this.#timer.unref?.();
    }
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0) this.#stopPolling();
    };
  }

  /** The current definitions, read in turn with announcements (a new stream's first event is never older than one it already got). */
  snapshot(): Promise<FlagSnapshot> {
    return this.#serial(() => readFlagSnapshot(this.#db, this.#log));
  }

  /** After a write through this instance: everyone listening hears it now. Never throws (the write succeeded). */
  changed(): Promise<void> {
    if (this.#listeners.size === 0) {
      this.#lastRevision = null;
      return Promise.resolve();
    }
    return this.#serial(async () => this.#announce(await readFlagSnapshot(this.#db, this.#log))).catch(
      (error: unknown) => {
        this.#log.error({ err: error }, 'feature flag change could not be announced; the next poll retries');
        this.#lastRevision = null;
      },
    );
  }

  /** Looks for writes made by other instances. */
  poll(): Promise<void> {
    if (this.#closed || this.#listeners.size === 0) return Promise.resolve();
    return this.#serial(async () => {
      const revision = await featureFlagsRevision(this.#db);
      if (revision === this.#lastRevision) return;
      this.#announce(await readFlagSnapshot(this.#db, this.#log));
    }).catch((error: unknown) => this.#log.warn({ err: error }, 'feature flag poll failed'));
  }

  close(): void {
    this.#closed = true;
    this.#stopPolling();
    this.#listeners.clear();
  }

  #announce(snapshot: FlagSnapshot): void {
    this.#lastRevision = snapshot.version;
    for (const listener of [...this.#listeners]) {
      try {
        listener(snapshot);
      } catch (error) {
        this.#log.error({ err: error }, 'feature flag listener failed');
      }
    }
  }

  #stopPolling(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  #serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task, task);
    this.#queue = run.catch(() => undefined);
    return run;
  }
}
