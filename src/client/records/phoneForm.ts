/**
 * A generated form made for a phone on a job site (the visit form, the card form): bigger inputs and save button for
 * fingers rather than a mouse; 16 px text keeps phones from zooming in.
 */
export const PHONE_FORM = {
  maxWidth: 720,
  '& .MuiInputBase-root': { minHeight: 48, fontSize: 16 },
  '& button[type=submit]': { minHeight: 48, flex: 1, fontSize: 16 },
} as const;
