import type { ComponentChildren } from 'preact';
import { useLocation } from 'preact-iso';
import { request } from '../api/client';
import { useLoad } from '../api/hooks';
import { ProjectDoc } from '../api/ops';
import { orgSections, projectSections } from '../routes';

/**
 * useProjectName loads a project's name for the breadcrumb of the screens
 * whose own query does not hold it (an invoice, a run, the workbench);
 * undefined until it arrives, or when it cannot be read.
 */
export function useProjectName(projectId: string): string | undefined {
  return useLoad(() => request(ProjectDoc, { id: projectId }), [projectId]).data?.project?.name;
}

/** ProjectTabs is the navigation between a project's sections. */
export function ProjectTabs(props: { projectId: string; org?: { id: string; name: string } | null; project?: string }) {
  const loc = useLocation();
  const base = `/projects/${props.projectId}`;
  return (
    <>
      <nav aria-label="Breadcrumb" class="crumbs">
        {props.org && <a href={`/orgs/${props.org.id}/projects`}>{props.org.name}</a>}
        {props.org && <span aria-hidden="true"> / </span>}
        <span>{props.project ?? 'Project'}</span>
      </nav>
      <nav aria-label="Project" class="tabs">
        {projectSections.map((s) => (
          <a key={s.path} href={base + s.path} aria-current={loc.path === base + s.path ? 'page' : undefined}>
            {s.label}
          </a>
        ))}
      </nav>
    </>
  );
}

export function OrgTabs(props: { orgId: string; children?: ComponentChildren }) {
  const loc = useLocation();
  const base = `/orgs/${props.orgId}`;
  return (
    <nav aria-label="Organization" class="tabs">
      {orgSections.map((s) => (
        <a key={s.path} href={base + s.path} aria-current={loc.path === base + s.path ? 'page' : undefined}>
          {s.label}
        </a>
      ))}
      {props.children}
    </nav>
  );
}
