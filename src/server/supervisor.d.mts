/** Types of supervisor.mjs (plain JavaScript: `npm start` runs it before anything is built). */
export declare const QUICK_CRASH_MS: number;
export declare const MAX_DELAY_MS: number;
export declare const FAILED_STARTS_BEFORE_GIVING_UP: number;
export declare function restartDelayMs(crashes: number): number;
export declare function supervise(entry: string, options?: { execArgv?: string[] }): void;
export declare function serverNodeOptions(execArgv: string[]): string[];
