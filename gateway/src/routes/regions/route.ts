/** Provinces, cities of a province, districts of a city (public: the report wizard needs them). */
import { cityParams, optionsReply, provinceParams } from '@wbs/shared/api/reference';
import type { FastifyInstance } from 'fastify';
import type * as v from 'valibot';
import { cities, districts, provinces } from '../../legacy/reference.ts';
import { presentOption } from '../../presenters/master.ts';
import { routeSchema } from '../../schema.ts';

const tags = ['reference'];

export default async function regionRoutes(app: FastifyInstance) {
  app.get(
    '/regions/provinces',
    {
      config: { policy: 'reference:read' },
      schema: routeSchema({ summary: 'Provinsi', tags, response: { 200: optionsReply } }),
    },
    async (request) => {
      const data = await provinces(request.legacy);
      return { items: data.map((p) => presentOption(p.provinceId, p.provinceName)) };
    },
  );

  app.get<{ Params: v.InferOutput<typeof provinceParams> }>(
    '/regions/provinces/:provinceId/cities',
    {
      config: { policy: 'reference:read' },
      schema: routeSchema({ summary: 'Kota', tags, params: provinceParams, response: { 200: optionsReply } }),
    },
    async (request) => {
      const data = await cities(request.legacy, request.params.provinceId);
      return { items: data.map((c) => presentOption(c.cityId, c.cityName)) };
    },
  );

  app.get<{ Params: v.InferOutput<typeof cityParams> }>(
    '/regions/cities/:cityId/districts',
    {
      config: { policy: 'reference:read' },
      schema: routeSchema({
        summary: 'Kecamatan',
        tags,
        params: cityParams,
        response: { 200: optionsReply },
      }),
    },
    async (request) => {
      const data = await districts(request.legacy, request.params.cityId);
      return { items: data.map((d) => presentOption(d.districtId, d.districtName)) };
    },
  );
}
