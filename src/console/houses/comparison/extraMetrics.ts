import { useEffect, useState } from 'react';
import { z } from 'zod';
import { type ApiClient } from '../../../api/client';
import { terminalSchema } from '../../../contract/devices';

export interface ExtraMetricOption {
  value: string;
  label: string;
}

const terminalsSchema = z.object({ rows: z.array(terminalSchema) });

/**
 * The extra parameters (a dust sensor, a scale) of the compared houses' terminal devices, as
 * metric options beside the catalogue's: a code carried by several houses is offered once.
 */
export function useExtraMetrics(api: ApiClient, houseIds: number[]): ExtraMetricOption[] {
  const [options, setOptions] = useState<ExtraMetricOption[]>([]);
  const key = houseIds.join(',');
  useEffect(() => {
    let cancelled = false;
    const ids = key ? key.split(',').map(Number) : [];
    Promise.all(
      ids.map((houseId) =>
        api.get('/terminal/list', { query: { houseId }, schema: terminalsSchema }),
      ),
    )
      .then((lists) => {
        if (cancelled) return;
        const byCode = new Map<string, ExtraMetricOption>();
        for (const extra of lists.flatMap((l) => l.rows.flatMap((d) => d.extras)))
          if (!byCode.has(extra.code))
            byCode.set(extra.code, {
              value: extra.code,
              label: extra.unit ? `${extra.name} (${extra.unit})` : extra.name,
            });
        setOptions([...byCode.values()]);
      })
      // Without the device lists the catalogue's metrics are still offered.
      .catch(() => !cancelled && setOptions([]));
    return () => {
      cancelled = true;
    };
  }, [api, key]);
  return options;
}
