import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The first administrator's generated password, kept beside the data in a file only its owner may read (mode 0600),
 * so that it is not lost when the start-up lines scroll away. `npm start` names the file at the end of its start-up
 * lines for as long as it exists; the administrator deletes it once they have changed the password.
 */
export const FIRST_PASSWORD_FILE = 'first-administrator-password.txt';

export function firstPasswordPath(dataDir: string): string {
  return path.resolve(dataDir, FIRST_PASSWORD_FILE);
}

export function keepFirstPassword(dataDir: string, email: string, password: string): string {
  const file = firstPasswordPath(dataDir);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(
    file,
    `The first administrator of this installation:\n  email: ${email}\n  password: ${password}\nChange it under Profile once signed in, then delete this file.\n`,
    { mode: 0o600 },
  );
  // writeFileSync's mode applies only when it creates the file (and through the umask): set it whatever was there.
  chmodSync(file, 0o600);
  return file;
}

export function keptFirstPassword(dataDir: string): string | null {
  const file = firstPasswordPath(dataDir);
  return existsSync(file) ? file : null;
}
