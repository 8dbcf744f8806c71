/** Where the gallery reports what it skipped and why; hosts pass their own (pino, console, a test spy). */
export interface GalleryLogger {
  warn(message: string, details?: Record<string, unknown>): void;
}

export const consoleLogger: GalleryLogger = {
  warn: (message, details) => console.warn(`[gallery] ${message}`, details ?? ''),
};
