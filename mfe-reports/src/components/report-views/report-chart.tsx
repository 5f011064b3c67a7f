/**
 * One report chart, drawn with recharts. Only this module imports recharts and the report view loads
 * it lazily, so the page's filters and figures never wait for the charting code. Nothing animates: a
 * screenshot or a print taken mid-animation would show a half-drawn chart.
 */
import {
  Area,
  Bar,
  BarChart,
  CartesianGrid,
  ComposedChart,
  DefaultLegendContent,
  Legend,
  Line,
  Pie,
  PieChart,
  Rectangle,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  type BarShapeProps,
} from 'recharts';
import { theme } from '@portal/shared/ui';
import type { ChartPlan, ChartSpec } from './chart-plan';
import { formatDay, formatFigure } from './report-cells';

const CHART_HEIGHT = 280;
const BAR_ROW_HEIGHT = 30;
const NAME_MAX_CHARS = 24;
/** Room under vertical bars for their names, slanted so that none is dropped in a narrow card. */
const SLANTED_AXIS_HEIGHT = 64;

/** Long names on the category axis are cut (the tooltip and the table keep them whole). */
const shortName = (value: unknown) => {
  const name = String(value);
  return name.length > NAME_MAX_CHARS ? `${name.slice(0, NAME_MAX_CHARS - 1)}…` : name;
};

/** Tooltip figures as the tables write them. */
const figureText = (value: unknown) => (typeof value === 'number' ? formatFigure(value) : String(value));

const heightOf = (spec: ChartSpec) =>
  spec.type === 'bars' && spec.horizontal ? Math.max(160, spec.data.length * BAR_ROW_HEIGHT + 90) : CHART_HEIGHT;

function ChartBody({ spec }: { spec: ChartSpec }) {
  const { token } = theme.useToken();
  const tick = { fill: token.colorTextSecondary, fontSize: token.fontSizeSM };
  const grid = <CartesianGrid stroke={token.colorBorderSecondary} strokeDasharray="3 3" />;
  const tooltipStyle = {
    background: token.colorBgElevated,
    borderColor: token.colorBorderSecondary,
    color: token.colorText,
  };
  const tooltip = <Tooltip contentStyle={tooltipStyle} formatter={figureText} />;

  switch (spec.type) {
    case 'donut':
      return (
        <PieChart accessibilityLayer={false}>
          <Pie
            data={spec.slices}
            dataKey="value"
            nameKey="name"
            innerRadius="55%"
            outerRadius="80%"
            stroke={token.colorBgContainer}
            isAnimationActive={false}
          />
          {tooltip}
          <Legend />
        </PieChart>
      );
    case 'progress': {
      const { days } = spec;
      const dayText = (value: unknown) => (days ? formatDay(String(value), days) : String(value));
      return (
        <ComposedChart data={spec.data} accessibilityLayer={false}>
          {grid}
          <XAxis dataKey={spec.category} tick={tick} tickFormatter={dayText} />
          <YAxis allowDecimals={false} tick={tick} tickFormatter={formatFigure} />
          <Tooltip contentStyle={tooltipStyle} formatter={figureText} labelFormatter={dayText} />
          <Legend />
          <Area
            type="linear"
            dataKey={spec.area.key}
            name={spec.area.title}
            stroke={spec.area.color}
            fill={spec.area.color}
            fillOpacity={0.15}
            isAnimationActive={false}
          />
          {spec.lines.map((s) => (
            <Line
              key={s.key}
              type="linear"
              dataKey={s.key}
              name={s.title}
              stroke={s.color}
              strokeWidth={2}
              isAnimationActive={false}
            />
          ))}
        </ComposedChart>
      );
    }
    case 'bars': {
      const stackId = spec.stacked ? 'figures' : undefined;
      const { categoryColors, category } = spec;
      // bars in their category's colour: the legend names the categories rather than the one figure
      const shape = categoryColors
        ? (props: BarShapeProps) => (
            <Rectangle {...props} fill={categoryColors[String(props.payload?.[category])] ?? props.fill} />
          )
        : undefined;
      const legend = categoryColors ? (
        <Legend
          content={(props) => (
            <DefaultLegendContent
              {...props}
              payload={Object.entries(categoryColors).map(([value, color]) => ({ value, color, type: 'square' }))}
            />
          )}
        />
      ) : (
        <Legend />
      );
      return (
        <BarChart data={spec.data} layout={spec.horizontal ? 'vertical' : 'horizontal'} accessibilityLayer={false}>
          {grid}
          {spec.horizontal ? (
            <>
              <XAxis type="number" allowDecimals={false} tick={tick} tickFormatter={formatFigure} />
              <YAxis
                type="category"
                dataKey={category}
                width={170}
                tick={tick}
                tickFormatter={shortName}
                interval={0}
              />
            </>
          ) : (
            <>
              <XAxis
                dataKey={category}
                tick={tick}
                interval={0}
                angle={-30}
                textAnchor="end"
                height={SLANTED_AXIS_HEIGHT}
                tickFormatter={shortName}
              />
              <YAxis allowDecimals={false} tick={tick} tickFormatter={formatFigure} />
            </>
          )}
          {tooltip}
          {legend}
          {spec.series.map((s) => (
            <Bar
              key={s.key}
              dataKey={s.key}
              name={s.title}
              fill={s.color}
              stackId={stackId}
              maxBarSize={36}
              isAnimationActive={false}
              shape={shape}
            />
          ))}
        </BarChart>
      );
    }
  }
}

/**
 * The chart is an image to assistive technology, named with what it shows (and its numbers when few);
 * the table view is the readable equivalent, hence no recharts keyboard layer inside the image.
 */
export default function ReportChart({ plan }: { plan: ChartPlan }) {
  const height = heightOf(plan.spec);
  return (
    <div role="img" aria-label={plan.label}>
      {/* jsdom and the first paint have no layout yet: start from a plausible size, then follow the card */}
      <ResponsiveContainer width="100%" height={height} initialDimension={{ width: 640, height }}>
        <ChartBody spec={plan.spec} />
      </ResponsiveContainer>
    </div>
  );
}
