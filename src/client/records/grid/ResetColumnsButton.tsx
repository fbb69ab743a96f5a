/** Back to the list's default columns, their order, widths and density (the grid's; nothing to reset on the card list). */

import ViewColumnIcon from '@mui/icons-material/ViewColumnOutlined';
import Button from '@mui/material/Button';
import { useGridPreferences } from './preferences';
import { useSmallScreen } from './smallScreen';

export function ResetColumnsButton({ resource }: { resource: string }) {
  const [preferences, setPreferences] = useGridPreferences(resource);
  if (useSmallScreen()) return null;
  return (
    <Button
      size="small"
      startIcon={<ViewColumnIcon />}
      onClick={() => setPreferences(undefined)}
      disabled={!preferences.visible && !preferences.order && !preferences.widths && !preferences.density}
    >
      Reset columns
    </Button>
  );
}
