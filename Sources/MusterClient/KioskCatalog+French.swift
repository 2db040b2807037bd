extension KioskCatalog {
    static func french(_ message: KioskMessage) -> String {
        switch message {
        case .title(let kiosk): "== Muster · borne \(kiosk) =="
        case .banner(let campaign, let kiosk): "== \(campaign) · enregistrement · borne \(kiosk) =="
        case .waitingForEvent: "Cette borne attend que l’organisateur choisisse l’événement."
        case .languageHint: languageHint
        case .languageChosen: "Langue : français."
        case .mainPrompt: "E-mail ou code du billet (ou « new » pour vous inscrire) : "
        case .found(let name): "Trouvé : \(name)"
        case .confirmPrompt: "Est-ce bien vous ? Enregistrer votre arrivée maintenant ? [o/N] "
        case .notCheckedIn: "Arrivée non enregistrée."
        case .notFound:
            "Introuvable : aucun billet ni e-mail ne correspond. Vérifiez l’orthographe, ou tapez « new » pour vous inscrire."
        case .seeStaff(let seconds):
            "Toujours introuvable. Veuillez vous adresser à l’accueil. Nouvel essai possible dans \(seconds) s."
        case .notValid(let name):
            "Adressez-vous à l’accueil : \(name), ce billet n’est pas valable pour l’enregistrement."
        case .alreadyIn(let name, let time): "Arrivée déjà enregistrée : \(name), à \(time)."
        case .checkedIn(let time): "Arrivée enregistrée à \(time)."
        case .welcome(let first): first.isEmpty ? "Bienvenue !" : "Bienvenue, \(first) !"
        case .welcomeWord: "BIENVENUE"
        case .ticketCode(let code): "Votre code de billet est \(code). Conservez-le pour entrer à nouveau."
        case .scanAtReEntry: "Scannez ce code pour entrer à nouveau :"
        case .notePrompt: "Laissez un mot d’une ligne dans le livre d’or (ou Entrée pour passer) : "
        case .noteSaved: "Merci, votre mot est dans le livre d’or."
        case .noteNotSaved: "Le mot n’a pas été enregistré."
        case .enjoy: "Profitez bien de l’événement !"
        case .registrationStart: "Inscription sur place (laissez le prénom vide pour annuler)."
        case .firstNamePrompt: "Prénom : "
        case .lastNamePrompt: "Nom : "
        case .lastNameRequired: "Nom (obligatoire) : "
        case .emailPrompt: "E-mail : "
        case .notAnEmail: "Cela ne ressemble pas à une adresse e-mail."
        case .companyPrompt: "Entreprise (facultatif) : "
        case .registrationCancelled: "Inscription annulée."
        case .emailRegistered:
            "Cet e-mail est déjà inscrit. Est-ce le vôtre ? Enregistrer votre arrivée maintenant ? [o/N] "
        case .failed(let detail): "Adressez-vous à l’accueil : une erreur s’est produite (\(detail))."
        case .refused(let detail): "Arrivée non enregistrée : \(detail)"
        case .seeStaffDesk: "Arrivée non enregistrée. Veuillez vous adresser à l’accueil."
        case .doorRefused(.notFound): french(.notFound)
        case .doorRefused(.notLocked): french(.waitingForEvent)
        case .doorRefused(.alreadyInside): "Arrivée non enregistrée : vous êtes déjà dans cet espace."
        case .doorRefused(.outsideWindow): "Arrivée non enregistrée : l’enregistrement n’est pas ouvert à cette heure."
        case .doorRefused(.zoneFull):
            "Arrivée non enregistrée : cet espace est complet pour le moment. Veuillez patienter ou demander au personnel."
        case .doorRefused(.entriesUsedUp): "Arrivée non enregistrée : ce billet ne donne plus droit à aucune entrée."
        case .doorRefused(.notAdmitted):
            "Adressez-vous à l’accueil : ce billet n’est pas valable pour l’enregistrement."
        case .doorRefused(.reEntryRefused):
            "Arrivée non enregistrée : une fois sorti de cet espace, on ne peut pas y revenir."
        case .badgePrinting: "Impression de votre badge…"
        case .badgePrinted: "Votre badge est prêt : veuillez le prendre dans l’imprimante."
        case .badgeNotPrinted: "Votre badge n’a pas pu être imprimé. Veuillez vous adresser à l’accueil."
        case .badgeAlreadyPrinted:
            "Un badge a déjà été imprimé pour vous. Adressez-vous à l’accueil pour en obtenir un autre."
        }
    }
}
