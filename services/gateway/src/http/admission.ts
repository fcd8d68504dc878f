import type { RequestHandler } from 'express';
import { expectedForms, invalidFieldError } from '@pwa/errors';
import { declareBodyTypes, notFoundHandler } from '@pwa/http';
import { admitPartnerRequest, type AdmissionPorts, type AdmissionSettings } from '../domain/admit-partner-request';
import { admitTokenRequestFromSource, type TokenEndpointPorts } from '../domain/guard-token-endpoint';
import { matchRoute, publicPathPrefix, type RouteDefinition } from '../domain/routes';
import { sourceBucketOf } from '../domain/credential-stuffing';
import { contextOf } from './request-context';
import { noteIfUnavailable } from './request-log';
import { noteRateLimitRejection } from './rate-limit-metrics';

/**
 * Finds the route in the table before anything else. A path the table does not list, or a listed
 * path with another method, gets the same 404 envelope: the catalogue has no code for "method not
 * allowed", and partners act on codes. A listed path whose parameter cannot be read (it does not
 * percent-decode to UTF-8, or holds a control character) is 400 PKC_2008 naming the parameter.
 * Nothing unlisted or unreadable is ever forwarded. The route table says which bodies each route
 * takes (JSON; the token endpoint also a form), and the body rules of createApp hold the request to it.
 */
export function matchPublicRoute(table: readonly RouteDefinition[]): RequestHandler {
  return (req, res, next) => {
    const rawPath = req.originalUrl.split('?')[0] ?? '';
    const match = matchRoute(table, req.method, rawPath);
    if (match.kind === 'invalid_parameter') {
      res.locals.routeTemplate = `${publicPathPrefix}${match.route.pathTemplate}`;
      throw invalidFieldError('PKC_2008', match.parameterName, 'wrong_format', `percent-encoded UTF-8 ${expectedForms.text}`, { lead: `Path parameter ${match.parameterName} is not valid` });
    }
    if (match.kind !== 'matched') {
      notFoundHandler(req, res, next);
      return;
    }
    const query = req.originalUrl.slice(rawPath.length);
    const context = contextOf(res);
    context.route = match.route;
    context.upstreamPath = `${match.upstreamPath}${query}`;
    res.locals.routeTemplate = `${publicPathPrefix}${match.route.pathTemplate}`;
    declareBodyTypes(res, match.route.acceptsFormBody === true ? 'json or form' : 'json');
    next();
  };
}

/**
 * Admission before the body is read: the bearer token, partner status, permission and rate limit
 * for partner routes; the source address's budget for the token endpoint. Runs before body parsing
 * so that an unauthenticated client cannot make the gateway parse anything.
 */
export function admitRequest(ports: AdmissionPorts & TokenEndpointPorts, settings: AdmissionSettings): RequestHandler {
  return async (req, res, next) => {
    const context = contextOf(res);
    const route = context.route;
    if (!route) throw new Error('admission ran before route matching');
    try {
      if (route.authentication === 'none') {
        await admitTokenRequestFromSource(sourceAddressOf(req.ip), ports);
      } else {
        const admission = await admitPartnerRequest(req.header('authorization'), route.requiredPermission, ports, settings);
        context.admission = admission;
        for (const [name, value] of Object.entries(admission.rateLimitHeaders)) res.setHeader(name, value);
      }
    } catch (error) {
      noteIfUnavailable(res, error);
      noteRateLimitRejection(res, error, route.authentication === 'none' ? 'token_ip' : 'partner');
      throw error;
    }
    next();
  };
}

/** The client's address as express sees it (the socket's peer, or X-Forwarded-For from a trusted proxy in proxy mode). */
export function sourceAddressOf(ip: string | undefined): string {
  return sourceBucketOf(ip ?? 'unknown');
}
