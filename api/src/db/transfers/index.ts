/**
 * Safe transfers (issue 6): files a user of a company sends to other users of that company, until
 * they expire. A transfer is visible only to its sender and its recipients, and only until
 * `expires_at`; the sweep deletes expired ones (their rows cascade; the caller removes the bytes).
 * By concern: sending.ts (who may receive, writing a transfer), access.ts (a transfer or file as a
 * user may reach it, downloads), list.ts (the boxes and transfers as the api answers them) and
 * deletion.ts (deleting one, the sweep); internal.ts holds what they share. This file names what the
 * rest of the api may use.
 */
export {
  findTransferFileFor,
  findTransferFor,
  insertTransferDownload,
  type TransferAccess,
  type TransferFileRecord,
} from './access';
export { deleteExpiredTransfers, deleteTransfer } from './deletion';
export { listTransferIds, transfersByIds, type TransferBox } from './list';
export {
  allowedRecipientIds,
  insertTransfer,
  listTransferRecipients,
  type NewTransfer,
  type NewTransferFile,
} from './sending';
