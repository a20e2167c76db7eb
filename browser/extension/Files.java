package org.paperkg.browser;

import java.io.InputStream;
import java.util.Map;

import javax.ws.rs.GET;
import javax.ws.rs.Path;
import javax.ws.rs.PathParam;
import javax.ws.rs.core.Response;

/**
 * Serves paperkg's Neo4j Browser guide and style sheet from Neo4j's own HTTP server, so that
 * {@code :play} and {@code :style} can load them from the managed instance (an unmanaged
 * extension, mounted at /paperkg by paperkg/browser.py). The files are resources of this jar,
 * packed in by paperkg at every start; nothing is read from the file system or the database.
 */
@Path("/")
public class Files {
    private static final Map<String, String> TYPES = Map.of(
            "html", "text/html; charset=utf-8",
            "grass", "text/plain; charset=utf-8",
            "cypher", "text/plain; charset=utf-8",
            "txt", "text/plain; charset=utf-8");

    @GET
    @Path("{name: [A-Za-z0-9][A-Za-z0-9_-]*(\\.[A-Za-z0-9]+)?}")
    public Response get(@PathParam("name") String name) {
        InputStream content = Files.class.getResourceAsStream("files/" + name);
        if (content == null) {
            return Response.status(Response.Status.NOT_FOUND).build();
        }
        int dot = name.lastIndexOf('.');
        String type = TYPES.getOrDefault(dot < 0 ? "" : name.substring(dot + 1), "application/octet-stream");
        // Public, static content: any origin may read it (Browser opened as localhost fetches
        // from 127.0.0.1), and it changes with every paperkg upgrade.
        return Response.ok(content, type)
                .header("Access-Control-Allow-Origin", "*")
                .header("Cache-Control", "no-cache")
                .build();
    }
}
