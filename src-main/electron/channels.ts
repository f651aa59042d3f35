/** The IPC channels (src-main/shared/channels.ts, shared with the browser mode's client). */
export * from '../shared/channels';
