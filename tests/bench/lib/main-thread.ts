/**
 * The CPU time of a page's main thread while some work runs, from a Chromium trace: the thread time (`tdur`) of the
 * renderer main thread's top-level tasks. Unlike a span measured with the clock, it does not grow when other
 * processes take the machine's cores (the bench machine is shared), so it is the figure "main-thread time" means.
 */
import type { CDPSession, Page } from 'playwright-core';

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

async function readStream(cdp: CDPSession, handle: string): Promise<string> {
  let text = '';
  for (;;) {
    const chunk = await cdp.send('IO.read', { handle });
    text += chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString('utf8') : chunk.data;
    if (chunk.eof) break;
  }
  await cdp.send('IO.close', { handle });
  return text;
}

/** Runs `work` while tracing; returns its result and the renderer main thread's CPU time in ms (tasks that ran during it). */
export async function mainThreadTime<T>(
  page: Page,
  work: () => Promise<T>,
): Promise<{ result: T; cpuMs: number; wallMs: number }> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Tracing.start', {
      traceConfig: { includedCategories: ['disabled-by-default-devtools.timeline', 'devtools.timeline'] },
      transferMode: 'ReturnAsStream',
    });
    const result = await work();
    const done = new Promise<string>((resolve) =>
      cdp.once('Tracing.tracingComplete', (event) => resolve(event.stream!)),
    );
    await cdp.send('Tracing.end');
    const events = (JSON.parse(await readStream(cdp, await done)) as { traceEvents: TraceEvent[] }).traceEvents;
    const main = events.find(
      (event) => event.ph === 'M' && event.name === 'thread_name' && event.args?.name === 'CrRendererMain',
    );
    const tasks = events.filter(
      (event) =>
        main && event.pid === main.pid && event.tid === main.tid && event.ph === 'X' && event.name === 'RunTask',
    );
    const cpuMs = tasks.reduce((sum, task) => sum + (task.tdur ?? task.dur ?? 0), 0) / 1000;
    const wallMs = tasks.length
      ? (Math.max(...tasks.map((task) => task.ts + (task.dur ?? 0))) - Math.min(...tasks.map((task) => task.ts))) / 1000
      : 0;
    return { result, cpuMs, wallMs };
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}
