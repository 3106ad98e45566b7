package io.spool.wire.sqs;

import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Raw HTTP requests to the endpoint, in either protocol, and what came back. */
final class RawSqs
{
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final String url;

    RawSqs(final String url)
    {
        this.url = url;
    }

    record Answer(int status, String body, HttpResponse<String> response)
    {
        String header(final String name)
        {
            return response.headers().firstValue(name).orElse(null);
        }

        /** The texts of every element of that name, in document order. */
        List<String> xml(final String element)
        {
            try
            {
                final Document document = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                    .parse(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)));
                final NodeList nodes = document.getElementsByTagName(element);
                final List<String> texts = new ArrayList<>();
                for (int i = 0; i < nodes.getLength(); i++)
                {
                    texts.add(nodes.item(i).getTextContent());
                }
                return texts;
            }
            catch (final Exception ex)
            {
                throw new AssertionError("not XML: " + body, ex);
            }
        }
    }

    /** A query-protocol POST of name, value pairs to {@code path}. */
    Answer form(final String path, final String... pairs)
    {
        final StringBuilder form = new StringBuilder();
        for (int i = 0; i < pairs.length; i += 2)
        {
            form.append(form.length() == 0 ? "" : "&").append(URLEncoder.encode(pairs[i], StandardCharsets.UTF_8))
                .append('=').append(URLEncoder.encode(pairs[i + 1], StandardCharsets.UTF_8));
        }
        return send(HttpRequest.newBuilder(URI.create(url + path))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form.toString())));
    }

    Answer get(final String pathAndQuery)
    {
        return send(HttpRequest.newBuilder(URI.create(url + pathAndQuery)).GET());
    }

    /** A JSON-protocol POST of {@code body} for {@code action}. */
    Answer json(final String action, final String body)
    {
        return send(HttpRequest.newBuilder(URI.create(url + "/")).header("Content-Type", "application/x-amz-json-1.0")
            .header("X-Amz-Target", "AmazonSQS." + action).POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    Answer send(final HttpRequest.Builder request)
    {
        try
        {
            final HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(response.statusCode(), response.body(), response);
        }
        catch (final Exception ex)
        {
            throw new AssertionError("request failed", ex);
        }
    }
}
