/**
 * English messages: all of react-admin's (ra-language-english), the app's own, the site-type label tokens
 * of SPEC section 9 (`type.{slug}`), and tokens built from the loaded schemas (see schemaMessages).
 */
import englishMessages from 'ra-language-english';
import { resourceForType } from '../resources/names';
import type { Schema } from '../system/types';
import { capitalise, TYPE_LABELS, titleCase } from './labels';

type Messages = Record<string, any>;

export const appMessages = {
  app: {
    tagline: 'Navigate. Organize. Grow.',
    // `about`: a total past 10,000 matches that the server estimated (meta.total_estimated).
    datatable: { displaying: 'Displaying %{from} to %{to} of %{total}', about: 'about %{total}' },
    menu: {
      dashboard: 'Dashboard',
      activity: 'Activity',
      tasks: 'Tasks',
      notifications: 'Notifications',
      profile: 'Profile',
      sign_out: 'Sign Out',
      map: 'Map',
      contacts: 'Contacts',
      contractors: 'Contractors',
      union_contractors: 'Union',
      non_union_contractors: 'Non-Union',
      sites: 'Job Sites',
      recruits: 'Recruits',
      members: 'Members',
      grievances: 'Grievances',
      imports: 'Imports',
      system: 'System',
      admin: 'Administration',
      open_menu: 'Open menu',
      close_menu: 'Close menu',
      user_menu: 'Account',
    },
    auth: {
      email: 'Email',
      password: 'Password',
      remember: 'Remember me',
      sign_in: 'Sign In',
      sign_in_title: 'Sign in to your account',
      forgot: 'Forgot your password?',
      privacy: 'Privacy',
      terms: 'Terms',
      support: 'Support',
      wrong_credentials: 'These credentials do not match our records.',
      throttled: 'Too many sign-in attempts. Please try again in %{seconds} seconds.',
      reset_title: 'Reset your password',
      reset_help: 'Enter your email address and we will send you a link to choose a new password.',
      reset_send: 'Send Reset Link',
      back_to_login: 'Back to sign in',
      update_title: 'Choose a new password',
      new_password: 'New password',
      confirm_password: 'Confirm new password',
      update_send: 'Update Password',
      missing_token: 'This link is not complete. Ask for a new password reset link.',
      passwords_differ: 'The passwords do not match.',
    },
    greeting: {
      morning: 'Good morning, %{name}',
      afternoon: 'Good afternoon, %{name}',
      evening: 'Good evening, %{name}',
    },
    profile: {
      title: 'Profile',
      details: 'Your details',
      first_name: 'First name',
      last_name: 'Last name',
      email: 'Email',
      password_section: 'Change password',
      password_help: 'Leave blank to keep your current password.',
      current_password: 'Current password',
      password: 'New password',
      password_confirmation: 'Confirm new password',
      save: 'Save',
      updated: 'Settings updated successfully.',
    },
    not_found: {
      title: 'Page not found',
      message: "Sorry, we couldn't find this page.",
      home: 'Go to the dashboard',
    },
    session: {
      expiring_title: 'Your session is about to expire',
      expiring_message: 'You will be automatically signed out in %{seconds} seconds.',
      stay: 'Stay Signed In',
      sign_out: 'Sign Out',
      timeout_title: 'Session Timeout',
      timeout_message: 'For security reasons, you have been signed out due to inactivity.',
      ok: 'OK',
    },
    system: {
      updated: '%{product} has updated. Please refresh your page.',
      refresh: 'Refresh',
    },
    chunk: {
      failed: 'Loading chunk %{name} failed. (%{type}: %{address})',
      retry: 'Retry',
      title: 'This screen could not be loaded',
    },
    panel: { close: 'Close' },
  },
  type: TYPE_LABELS,
};

export function baseMessages(): Messages {
  const messages: Messages = structuredClone(englishMessages) as Messages;
  messages.ra.navigation.page_range_info = 'Displaying %{offsetBegin} to %{offsetEnd} of %{total}';
  return { ...messages, ...structuredClone(appMessages) };
}

/**
 * Schema-name tokens: `schemas.{type}.{singular,plural}{,_lower,_title}`, react-admin's resource names
 * (`resources.{resource}.name` = 'Singular |||| Plural'), field names and success notifications.
 */
export function schemaMessages(schemas: readonly Schema[]): Messages {
  const schemaTokens: Messages = {};
  const resources: Messages = {};
  for (const schema of schemas) {
    const singular = schema.name_singular || schema.type;
    const plural = schema.name_plural || singular;
    schemaTokens[schema.type] = {
      singular,
      plural,
      singular_lower: singular.toLowerCase(),
      plural_lower: plural.toLowerCase(),
      singular_title: titleCase(singular),
      plural_title: titleCase(plural),
    };
    const fields: Messages = {};
    for (const field of schema.fields ?? []) {
      if (field.slug && field.name) fields[field.slug] = field.name;
    }
    const entity = capitalise(singular);
    resources[resourceForType(schema.type)] = {
      name: `${titleCase(singular)} |||| ${titleCase(plural)}`,
      fields,
      notifications: {
        created: `${entity} created successfully.`,
        updated: `${entity} updated successfully.`,
        deleted: `${entity} deleted successfully.`,
        restored: `${entity} restored successfully.`,
      },
    };
  }
  return { schemas: schemaTokens, resources };
}

export function buildMessages(schemas: readonly Schema[]): Messages {
  return { ...baseMessages(), ...schemaMessages(schemas) };
}
