/**
 * One chart.js chart on a canvas. Only the dashboard's charts chunk imports this module, so chart.js
 * (registered here with just the pieces the dashboard draws) never weighs on any other page.
 */
import { useEffect, useRef } from 'react';
import {
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  DoughnutController,
  LinearScale,
  Tooltip,
  type ChartConfiguration,
  type Scale,
} from 'chart.js';
import { toFont } from 'chart.js/helpers';
import { fitLabel, shortLabel } from '../model/short-label';

Chart.register(ArcElement, BarController, BarElement, CategoryScale, DoughnutController, LinearScale, Tooltip);

/** What a side axis needs beside its labels: the tick padding and mark, the axis line, the layout's padding. */
const SIDE_AXIS_ROOM = 16;

export interface ChartCanvasProps {
  type: 'doughnut' | 'bar';
  /** What the chart shows, for screen readers (the numbers are also in a table beside it). */
  label: string;
  labels: string[];
  values: number[];
  colors: string[];
  /** Bars run left to right, for long category names. */
  horizontal?: boolean;
  /** Axis and tick text, from the theme. */
  textColor?: string;
  gridColor?: string;
  height?: number;
}

function configOf({
  type,
  horizontal,
  textColor,
  gridColor,
}: Pick<ChartCanvasProps, 'type' | 'horizontal' | 'textColor' | 'gridColor'>): ChartConfiguration {
  const common = { responsive: true, maintainAspectRatio: false, plugins: { tooltip: { enabled: true } } };
  if (type === 'doughnut') {
    const doughnut: ChartConfiguration<'doughnut'> = {
      type,
      data: { labels: [], datasets: [] },
      options: { ...common, cutout: '60%' },
    };
    return doughnut as ChartConfiguration;
  }
  const axis = { ticks: { color: textColor }, grid: { color: gridColor } };
  // Names on the category axis are shortened (long project titles would squeeze the bars); the
  // tooltip and the table beside the chart keep them whole. On a side axis (horizontal bars) they
  // are also cut to what fits: chart.js gives it at most half the chart's width and clips the rest.
  const categoryAxis = {
    ...axis,
    ticks: {
      color: textColor,
      callback(this: Scale, value: string | number) {
        const text = shortLabel(this.getLabelForValue(Number(value)));
        if (!horizontal) return text;
        const { ctx } = this;
        ctx.save();
        // ticks are drawn in chart.js's default font (this config sets none of its own)
        ctx.font = toFont(Chart.defaults.font).string;
        const fitted = fitLabel(text, this.chart.width / 2 - SIDE_AXIS_ROOM, (t) => ctx.measureText(t).width);
        ctx.restore();
        return fitted;
      },
    },
  };
  // Counts: whole numbers only on the value axis.
  const valueAxis = { ...axis, beginAtZero: true, ticks: { color: textColor, precision: 0 } };
  return {
    type,
    data: { labels: [], datasets: [] },
    options: {
      ...common,
      indexAxis: horizontal ? 'y' : 'x',
      scales: horizontal ? { x: valueAxis, y: categoryAxis } : { x: categoryAxis, y: valueAxis },
    },
  };
}

export function ChartCanvas(props: ChartCanvasProps) {
  const { type, label, labels, values, colors, horizontal = false, textColor, gridColor, height = 220 } = props;
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const chartRef = useRef<Chart | null>(null);

  // The chart's kind and look: a new chart when they change, destroyed with the component.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const chart = new Chart(canvas, configOf({ type, horizontal, textColor, gridColor }));
    chartRef.current = chart;
    return () => {
      chart.destroy();
      chartRef.current = null;
    };
  }, [type, horizontal, textColor, gridColor]);

  // The numbers: updated in place, so a refreshed summary animates instead of redrawing from scratch.
  useEffect(() => {
    const chart = chartRef.current;
    if (!chart) return;
    chart.data.labels = labels;
    chart.data.datasets = [{ label, data: values, backgroundColor: colors, borderWidth: type === 'doughnut' ? 1 : 0 }];
    chart.update();
  }, [labels, values, colors, label, type, horizontal, textColor, gridColor]);

  return (
    <div style={{ position: 'relative', height }}>
      <canvas ref={canvasRef} role="img" aria-label={label}>
        {labels.map((l, i) => `${l}: ${values[i]}`).join(', ')}
      </canvas>
    </div>
  );
}
