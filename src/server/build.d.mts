/** Types of build.mjs (plain JavaScript: `npm start` runs it before anything is built). */
import type { BuildOptions } from 'esbuild';

export declare const root: string;
export declare const builtServer: string;
export declare const serverBundleOptions: BuildOptions;
export declare function buildClientIfStale(): void;
export declare function buildServerIfStale(): Promise<void>;
