/** What the health, portal config and system settings (portal messages) operations answer, as zod schemas (see projects/results.ts). */
import { z } from 'zod';
import { id, timestamp } from '../answers';
import { PORTAL_MESSAGE_KEYS, PORTAL_MESSAGE_STATUSES, portalConfigSchema } from '../schemas';

// ---- Health and portal config

export const health = z.strictObject({ status: z.literal('ok'), database: z.literal('ok'), apiVersion: z.string() });
export const portalConfig = portalConfigSchema;

// ---- System settings (portal messages)

export const portalMessage = z.strictObject({
  id,
  key: z.enum(PORTAL_MESSAGE_KEYS),
  status: z.enum(PORTAL_MESSAGE_STATUSES),
  value: z.string(),
  version: z.number().int().min(1),
  dismissed: z.boolean(),
  updatedAt: timestamp,
});
export const systemSettingsList = z.strictObject({ data: z.array(portalMessage) });

// ---- Remote overrides (this browser loads a remote from another address: a release under test)

export const remoteOverride = z.strictObject({
  remote: z.string().describe("the remote's name, as in /remotes.json"),
  url: z.string().describe('the address of the mf-manifest.json this browser loads it from'),
});
export const remoteOverrides = z.strictObject({ results: z.array(remoteOverride) });
