/**
 * The choropleth of Peta Laporan: the bundled province boundaries (boundaries/README.md) drawn by
 * nivo's GeoMapCanvas, each province filled by its count's step. Loaded only through `React.lazy`
 * (nivo, d3-geo and the 49 KB of boundaries stay out of the initial JavaScript). Canvas, so Ekspor
 * PNG copies the very pixels on screen. The canvas is hidden from assistive technology; the table
 * beside it gives the same figures and the same drill-down.
 */
import { GeoMapCanvas } from '@nivo/geo';
import { type MouseEvent, useEffect, useMemo, useRef, useState } from 'react';
import { feature } from 'topojson-client';
import topology from './boundaries/indonesia-38-provinces.topo.json';
import {
  type AreaCount,
  areaColor,
  areaText,
  type BoundaryProperties,
  isOpenable,
  MAP_COLORS,
  provinceIdOf,
} from './model.ts';

type Province = AreaCount & { provinceId: number; provinceName: string };
type Boundary = { type: 'Feature'; geometry: unknown; properties: BoundaryProperties };
type ProvinceFeature = Boundary & { id: string; provinceId: number | null };

const OBJECT = 'indonesia-38-prov-topo';
const FONT = "'Inter', system-ui, sans-serif";

/** The 38 boundaries as GeoJSON, converted once (the file is not changed, only read). */
let boundaries: Boundary[] | undefined;
function boundaryFeatures(): Boundary[] {
  if (!boundaries) {
    const collection = feature(topology as never, topology.objects[OBJECT] as never) as unknown as {
      features: Boundary[];
    };
    boundaries = collection.features;
  }
  return boundaries;
}

/**
 * Mercator centred on Indonesia (95°–141° E, 11° S–6° N): the scale fits the longitudes into the
 * width, the height keeps the latitudes, the translation puts their middle (2.5° S) in the centre.
 */
const WIDTH_PER_RADIAN = 0.96 / ((46 * Math.PI) / 180);
const HEIGHT_RATIO = 0.4;
const CENTRE_Y = Math.log(Math.tan(Math.PI / 4 + (-2.5 * Math.PI) / 180 / 2));

function Tooltip({ feature: f, byId }: { feature: ProvinceFeature; byId: Map<number, Province> }) {
  const province = f.provinceId === null ? undefined : byId.get(f.provinceId);
  return (
    <div
      style={{
        background: '#ffffff',
        border: '1px solid #cbd5e0',
        borderRadius: 6,
        padding: '6px 10px',
        boxShadow: '0 2px 6px rgba(0,0,0,0.15)',
        fontFamily: FONT,
        fontSize: 13,
        width: 'max-content',
      }}
    >
      <strong>{province?.provinceName ?? f.properties.PROVINSI}</strong>:{' '}
      {province ? areaText(province) : '–'}
    </div>
  );
}

export type ProvinceMapProps = {
  provinces: readonly Province[];
  steps: readonly number[];
  /** A click on a province that can be drilled into (from 5 reports). */
  onSelect: (provinceId: number) => void;
};

export default function ProvinceMap({ provinces, steps, onSelect }: ProvinceMapProps) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry?.contentRect.width ?? 0)));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const byId = useMemo(() => new Map(provinces.map((p) => [p.provinceId, p])), [provinces]);
  const features = useMemo<ProvinceFeature[]>(
    () =>
      boundaryFeatures().map((f, index) => {
        const provinceId = provinceIdOf(f.properties, provinces);
        return { ...f, id: provinceId === null ? `x${index}` : String(provinceId), provinceId };
      }),
    [provinces],
  );
  const openable = (f: ProvinceFeature | null) => {
    const province = f?.provinceId == null ? undefined : byId.get(f.provinceId);
    return province && isOpenable(province) ? province : undefined;
  };
  const height = Math.round(width * HEIGHT_RATIO);
  const scale = width * WIDTH_PER_RADIAN;

  return (
    <div ref={box} style={{ width: '100%', height: height || undefined }}>
      {width > 0 && (
        <GeoMapCanvas
          width={width}
          height={height}
          features={features}
          projectionType="mercator"
          projectionScale={scale}
          projectionTranslation={[0.5, 0.5 + (CENTRE_Y * scale) / height]}
          projectionRotation={[-118, 0, 0]}
          fillColor={(f: ProvinceFeature) =>
            areaColor(f.provinceId === null ? undefined : byId.get(f.provinceId), steps)
          }
          borderWidth={0.6}
          borderColor={MAP_COLORS.border as never}
          theme={{ background: '#ffffff' }}
          tooltip={({ feature: f }) => <Tooltip feature={f as ProvinceFeature} byId={byId} />}
          onClick={(f: ProvinceFeature) => {
            const province = openable(f);
            if (province) onSelect(province.provinceId);
          }}
          {...{
            // In the package's code but not its declarations: the canvas draws only the listed
            // layers (no default), and a pointer shows over what a click opens.
            layers: ['features'],
            onMouseMove: (f: ProvinceFeature | null, event: MouseEvent<HTMLCanvasElement>) => {
              event.currentTarget.style.cursor = openable(f) ? 'pointer' : 'auto';
            },
          }}
        />
      )}
    </div>
  );
}
