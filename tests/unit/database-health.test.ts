import { describe, expect, it } from 'vitest';
import { isConnectionLost, isDatabaseUnavailable } from '../../src/server/db/connection-errors.js';
import { DatabaseHealth } from '../../src/server/db/database-health.js';

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('which failures mean the database is out of reach', () => {
  it('are the server stopping, restarting or gone, never a wrong statement', () => {
    expect(isConnectionLost(withCode('57P01', 'terminating connection due to administrator command'))).toBe(true);
    expect(isConnectionLost(withCode('57P03', 'the database system is starting up'))).toBe(true);
    expect(isConnectionLost(withCode('08006'))).toBe(true);
    expect(isConnectionLost(withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'))).toBe(true);
    expect(isConnectionLost(new Error('Connection terminated unexpectedly'))).toBe(true);
    // Connecting to a name with two addresses fails with both.
    expect(isConnectionLost(new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]))).toBe(true);
    expect(isConnectionLost(withCode('23505', 'duplicate key value violates unique constraint'))).toBe(false);
    expect(isConnectionLost(withCode('42P01', 'relation "nope" does not exist'))).toBe(false);
    expect(isConnectionLost(new Error('timeout exceeded when trying to connect'))).toBe(false);
    expect(isConnectionLost(null)).toBe(false);
  });

  it('and a pool that stayed busy for the whole wait is answered 503 too, without taking the database for down', () => {
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDatabaseUnavailable(withCode('57P01'))).toBe(true);
    expect(isDatabaseUnavailable(withCode('22P02', 'invalid input syntax for type integer'))).toBe(false);
  });
});

describe('DatabaseHealth', () => {
  it('goes down on a lost connection, probes until the server answers, and tells its listeners each change', async () => {
    let answers = false;
    let probes = 0;
    const health = new DatabaseHealth(async () => {
      probes++;
      if (!answers) throw withCode('ECONNREFUSED');
    });
    const changes: boolean[] = [];
    health.onChange((up) => changes.push(up));
    health.report(withCode('23505'));
    expect(health.up).toBe(true);

    health.report(withCode('57P01', 'terminating connection due to administrator command'));
    health.report(withCode('57P01'));
    expect(health.up).toBe(false);
    expect(health.reason).toMatch(/administrator command/);
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect(probes).toBeGreaterThanOrEqual(2);
    expect(health.up).toBe(false);
    answers = true;
    await new Promise((resolve) => setTimeout(resolve, 900));
    expect(health.up).toBe(true);
    expect(health.reason).toBeNull();
    expect(changes).toEqual([false, true]);
    health.close();
  });

  it('of the embedded database goes down only while its thread restarts', () => {
    const health = DatabaseHealth.inProcess();
    const changes: boolean[] = [];
    health.onChange((up) => changes.push(up));
    health.report(withCode('57P01'));
    expect(health.up).toBe(true);
    health.stopped('The embedded database stopped unexpectedly');
    expect(health.up).toBe(false);
    expect(health.reason).toBe('The embedded database stopped unexpectedly');
    health.started();
    expect(health.up).toBe(true);
    expect(changes).toEqual([false, true]);
  });
});
