/** Copies `text`: the Clipboard API where the page may use it (https, localhost), else the selected field. */
export async function copyText(text: string, field: HTMLInputElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    field?.select();
    return field ? document.execCommand('copy') : false;
  }
}
