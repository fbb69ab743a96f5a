/**
 * The layers menu: job sites (always), contractors (when the map offers them), region outlines, each record type
 * with a geo point the person may read, what colours the regions, and for people who may create regions the upload
 * of region shapes.
 */
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import Popover from '@mui/material/Popover';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useCanAccess } from 'react-admin';
import type { MapMeasure as Measure, PointLayer } from '../../common/map-types';
import { RegionUpload } from './RegionUpload';

export interface LayerChoices {
  contractors: boolean;
  regions: boolean;
  measure: Measure | null;
  /** The record types with a geo point drawn (their `type`). */
  points: string[];
}

export function LayersMenu({
  anchor,
  onClose,
  value,
  onChange,
  contractorsOffered,
  pointLayers,
}: {
  anchor: HTMLElement | null;
  onClose: () => void;
  value: LayerChoices;
  onChange: (value: LayerChoices) => void;
  contractorsOffered: boolean;
  /** Record types with a geo point the person may read. */
  pointLayers: readonly PointLayer[];
}) {
  const { canAccess: canUploadShapes } = useCanAccess({ resource: 'regions', action: 'create' });
  return (
    <Popover
      open={Boolean(anchor)}
      anchorEl={anchor}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
    >
      <Box sx={{ p: 2, width: 260 }}>
        <Typography variant="overline" color="text.secondary">
          Layers
        </Typography>
        <Stack>
          <FormControlLabel control={<Checkbox checked disabled />} label="Job sites" />
          <FormControlLabel
            control={
              <Checkbox
                checked={value.contractors}
                onChange={(e) => onChange({ ...value, contractors: e.target.checked })}
                name="contractors-layer"
              />
            }
            label="Contractors"
            disabled={!contractorsOffered}
          />
          <FormControlLabel
            control={
              <Checkbox
                checked={value.regions}
                onChange={(e) => onChange({ ...value, regions: e.target.checked })}
                name="regions-layer"
              />
            }
            label="Regions"
          />
          {pointLayers.map((layer) => (
            <FormControlLabel
              key={layer.type}
              control={
                <Checkbox
                  checked={value.points.includes(layer.type)}
                  onChange={(e) =>
                    onChange({
                      ...value,
                      points: e.target.checked
                        ? [...value.points, layer.type]
                        : value.points.filter((type) => type !== layer.type),
                    })
                  }
                  name={`points-layer-${layer.type}`}
                />
              }
              label={layer.name}
            />
          ))}
        </Stack>
        <Typography variant="overline" color="text.secondary" component="div" sx={{ mt: 1 }}>
          Colour regions by
        </Typography>
        <RadioGroup
          value={value.measure ?? 'none'}
          onChange={(e) =>
            onChange({ ...value, measure: e.target.value === 'none' ? null : (e.target.value as Measure) })
          }
        >
          <FormControlLabel value="none" control={<Radio size="small" />} label="Nothing (outlines)" />
          <FormControlLabel
            value="sites"
            control={<Radio size="small" />}
            label="Number of sites"
            disabled={!value.regions}
          />
          <FormControlLabel
            value="union_share"
            control={<Radio size="small" />}
            label="Union share"
            disabled={!value.regions}
          />
        </RadioGroup>
        {canUploadShapes && (
          <>
            <Divider sx={{ my: 1 }} />
            <Typography variant="overline" color="text.secondary">
              Region shapes
            </Typography>
            <RegionUpload />
          </>
        )}
      </Box>
    </Popover>
  );
}
