export { fileBytesSent, UploadError, uploadForm, type UploadOptions } from '@portal/shared/web/upload';
