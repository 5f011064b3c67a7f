/**
 * The notifications (the bell: a list plus an unread count, each user's own only) and feature flags
 * operations (base /api/v1), each described once (see ../contract.ts). Flags and their evaluation:
 * ../feature-flags.ts and docs/flags-and-notifications.md.
 */
import { z } from 'zod';
import { defineOperation } from '../contract';
import { featureFlagInputSchema, featureFlagKeySchema } from '../schemas';
import { flagDefinition, flagDefinitionList, flagsPayload, notificationList, unreadCount } from './results';

export const NOTIFICATIONS_MAX_PAGE_SIZE = 100;

export const notificationsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(NOTIFICATIONS_MAX_PAGE_SIZE).default(20),
});

// ---- Notifications

export const listNotifications = defineOperation({
  method: 'GET',
  url: '/api/v1/notifications',
  summary: "List the caller's notifications",
  tag: 'Notifications',
  policy: 'signedIn',
  query: notificationsQuerySchema,
  responses: { 200: 'the page of notifications and the unread count' },
  result: notificationList,
});

export const markAllNotificationsRead = defineOperation({
  method: 'POST',
  url: '/api/v1/notifications/read-all',
  summary: "Mark all the caller's notifications read",
  tag: 'Notifications',
  policy: 'signedIn',
  responses: { 200: 'the unread count' },
  result: unreadCount,
});

/** Another user's notification is answered like a missing one (404 not_found). */
export const markNotificationRead = defineOperation({
  method: 'POST',
  url: '/api/v1/notifications/:id/read',
  summary: 'Mark a notification read',
  tag: 'Notifications',
  policy: 'signedIn',
  responses: { 200: 'the unread count' },
  result: unreadCount,
});

/**
 * `unread` events with `{ unreadCount }` on connect and on every change, a heartbeat comment every
 * 25 s; ends with the session, after 15 minutes (the browser reconnects) or when the app closes.
 */
export const followUnreadCount = defineOperation({
  method: 'GET',
  url: '/api/v1/notifications/stream',
  summary: 'Follow the unread notification count (server-sent events)',
  tag: 'Notifications',
  policy: 'signedIn',
  responses: { 200: 'an event stream of `unread` events' },
  produces: ['text/event-stream'],
});

// ---- Feature flags

export const getFeatureFlags = defineOperation({
  method: 'GET',
  url: '/api/v1/feature-flags',
  summary: 'Get the feature flags evaluated for the caller',
  tag: 'Feature flags',
  policy: 'signedIn',
  responses: { 200: 'the evaluated flags and their version' },
  result: flagsPayload,
});

/** `flags` events (the evaluated flags, as GET answers them): the current ones first, then each change. */
export const followFeatureFlags = defineOperation({
  method: 'GET',
  url: '/api/v1/feature-flags/stream',
  summary: 'Follow changes of the evaluated feature flags (server-sent events)',
  tag: 'Feature flags',
  policy: 'signedIn',
  responses: { 200: 'an event stream of the evaluated flags' },
  produces: ['text/event-stream'],
});

export const listFeatureFlagDefinitions = defineOperation({
  method: 'GET',
  url: '/api/v1/feature-flags/definitions',
  summary: 'List the feature flag definitions',
  tag: 'Feature flags',
  policy: 'staffAdmin',
  responses: { 200: 'the flag definitions' },
  result: flagDefinitionList,
});

const flagKeyParams = z.object({ key: featureFlagKeySchema });

export const saveFeatureFlag = defineOperation({
  method: 'PUT',
  url: '/api/v1/feature-flags/:key',
  summary: 'Create or update a feature flag',
  tag: 'Feature flags',
  policy: 'staffAdmin',
  params: flagKeyParams,
  body: featureFlagInputSchema,
  responses: { 200: 'the updated flag definition', 201: 'the created flag definition' },
  result: flagDefinition,
});

export const deleteFeatureFlag = defineOperation({
  method: 'DELETE',
  url: '/api/v1/feature-flags/:key',
  summary: 'Delete a feature flag',
  tag: 'Feature flags',
  policy: 'staffAdmin',
  params: flagKeyParams,
  responses: { 204: 'deleted' },
});
