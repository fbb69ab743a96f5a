import { accessSync, constants, statfsSync, statSync } from 'node:fs';

/** The folder in memory that Linux offers every process (tmpfs), when there is one this user may write to. */
const MEMORY_FOLDER = '/dev/shm';
/**
 * What a suite may hold there at once: the templates, a PostgreSQL server's folder and the databases of the files
 * running (the API suite), or the lanes' databases, the 100,000 sites and Chromium's profiles (the browser suite). A container's /dev/shm is often 64 MB; below this the disk is used as before.
 */
const MEMORY_FOLDER_NEEDS = 2 * 1024 ** 3;

/**
 * A test run's scratch files go in memory instead of on the disk: in the API suite every app's data folder, the
 * templates, the PostgreSQL server's folder and each test's own temporary files (each file copies a 40 MB database
 * folder and removes it again, and on a shared disk that waiting, not the CPU, was most of a file's start); in the
 * browser suite each lane's server's data folder (where every write a test makes lands), the 100,000-site
 * PostgreSQL server's folder and Chromium's profiles and caches. The files and the code that writes them are the same (fsync and
 * all); only where `os.tmpdir()` points changes, for this run and the processes and workers it starts. A TMPDIR set by
 * whoever runs the suite is kept.
 */
export function scratchInMemory() {
  if (process.env.TMPDIR) return;
  try {
    if (!statSync(MEMORY_FOLDER).isDirectory()) return;
    accessSync(MEMORY_FOLDER, constants.W_OK);
    const space = statfsSync(MEMORY_FOLDER);
    if (space.bavail * space.bsize < MEMORY_FOLDER_NEEDS) return;
  } catch {
    return;
  }
  process.env.TMPDIR = MEMORY_FOLDER;
}
