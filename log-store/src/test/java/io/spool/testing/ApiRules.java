package io.spool.testing;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.members;

/** ArchUnit rules every module's architecture test applies to its own API packages (docs/decisions/014). */
public final class ApiRules
{
    private ApiRules()
    {
    }

    /**
     * No public or protected member of a public class in {@code apiPackages} has an {@code internal} type in its
     * signature, except the types named in {@code exposedOnPurpose}, each of which the caller justifies.
     */
    public static ArchRule apiNeverExposesInternals(final Set<String> exposedOnPurpose, final String... apiPackages)
    {
        return members().that().areDeclaredInClassesThat().resideInAnyPackage(apiPackages)
            .and().areDeclaredInClassesThat().arePublic()
            .and(DescribedPredicate.describe("are public or protected", (JavaMember member) ->
                member.getModifiers().contains(JavaModifier.PUBLIC) ||
                    member.getModifiers().contains(JavaModifier.PROTECTED)))
            .should(notMentionInternalTypes(exposedOnPurpose))
            .because("users see a module's API only; its internals change without notice");
    }

    private static ArchCondition<JavaMember> notMentionInternalTypes(final Set<String> exposedOnPurpose)
    {
        return new ArchCondition<>("not mention internal types in their signature")
        {
            @Override
            public void check(final JavaMember member, final ConditionEvents events)
            {
                final List<JavaClass> types = new ArrayList<>();
                if (member instanceof JavaMethod method)
                {
                    types.add(method.getRawReturnType());
                }
                if (member instanceof JavaCodeUnit codeUnit)
                {
                    types.addAll(codeUnit.getRawParameterTypes());
                }
                if (member instanceof JavaField field)
                {
                    types.add(field.getRawType());
                }
                for (final JavaClass type : types)
                {
                    final JavaClass base = type.isArray() ? type.getBaseComponentType() : type;
                    if (base.getPackageName().contains(".internal") && !exposedOnPurpose.contains(base.getName()))
                    {
                        events.add(SimpleConditionEvent.violated(member,
                            member.getFullName() + " exposes the internal type " + base.getName()));
                    }
                }
            }
        };
    }
}
