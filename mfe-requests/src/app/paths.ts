/** The addresses of the requests screens, built in one place so every link agrees with the routes of App.tsx. */

export const REQUESTS_PATH = '/requests';
export const requestPath = (requestId: string) => `${REQUESTS_PATH}/${encodeURIComponent(requestId)}`;
