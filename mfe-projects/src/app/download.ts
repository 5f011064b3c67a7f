/**
 * Downloads a stored file through its signed link (GET /files/:id/signed-url, then the browser fetches
 * the link). Rejects with an UploadError carrying the api's code and text (e.g.
 * transfer_passphrase_incorrect): the shared helper, named as the screens here know it.
 */
export { startSignedDownload as downloadFile } from '@portal/shared/web/download';
