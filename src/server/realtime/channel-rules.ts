import type { AuthUser } from '../auth/auth-user.js';

export type ChannelRuleResult = boolean | Record<string, unknown>;
export type ChannelRule = (user: AuthUser, match: RegExpMatchArray) => ChannelRuleResult | Promise<ChannelRuleResult>;

/** What a rule decided: refused, or allowed with the member info a presence channel shows to others. */
export type ChannelDecision = { allowed: false } | { allowed: true; memberInfo: Record<string, unknown> };

/**
 * Who may join which private-/presence- channel, in the style of Laravel's `Broadcast::channel`. Patterns
 * are matched against the full channel name, prefix included. The first rule whose pattern matches decides;
 * with no matching rule the answer is no, so a channel nobody thought about stays closed.
 */
export class ChannelRules {
  private readonly rules: Array<{ pattern: RegExp; rule: ChannelRule }> = [];

  add(pattern: RegExp, rule: ChannelRule): void {
    // A global or sticky regexp keeps state between calls and would match every other time.
    this.rules.push({ pattern: new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, '')), rule });
  }

  async decide(user: AuthUser, channel: string): Promise<ChannelDecision> {
    for (const { pattern, rule } of this.rules) {
      const match = channel.match(pattern);
      if (!match) continue;
      const result = await rule(user, match);
      if (result === false || result === null || result === undefined) return { allowed: false };
      return { allowed: true, memberInfo: typeof result === 'object' ? result : { id: user.id, name: user.name } };
    }
    return { allowed: false };
  }
}

/** A user's own channel (notifications, DESIGN.md contracts) and their role's channel (permission changes). */
export function addBuiltInRules(rules: ChannelRules): void {
  rules.add(/^private-App\.Models\.User\.(\d+)$/, (user, match) => user.id === Number(match[1]));
  rules.add(
    /^private-App\.Models\.Role\.(\d+)$/,
    (user, match) => user.role_id !== null && user.role_id === Number(match[1]),
  );
}
